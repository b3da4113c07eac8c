// Bundles the server entry of the build (dist/composition/main.js, as tsc wrote it) into one module plus
// chunks, in place, so that `node dist/composition/main.js` starts without the ESM loader resolving, reading
// and linking some 770 files one by one (issue 39: the start-up check, bench/startup.ts). Run by `npm run
// build`, after tsc.
//
// - The gateway's own files and the packages that load at start and are imported only by the gateway
//   (inversify, fp-ts, io-ts, hono, lru-cache, pino, busboy...: INLINE) are inlined; every other package
//   stays external, loaded from node_modules as before (prom-client, the MCP SDK, oidc-provider, kysely...).
// - What the sources import lazily (`await import(...)`) stays lazy: splitting puts it in chunks of its own
//   (dist/composition/main-chunk-*.js), loaded on first use.
// - Each own file's `import.meta.url` becomes the URL of the file it came from in dist/, so that the paths
//   made from it (the document reader's worker, createRequire, the /docs script, the views, package.json,
//   migrate.ts's main-module test) are those of the unbundled build, which stays in dist/ beside the bundle
//   (dist/composition/library.js, the library entry, is not bundled).
import { build, type Plugin } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/** dist/ by default; another build's folder as the argument (an experiment on a copy). */
const dist = resolve(process.argv[2] ?? resolve(import.meta.dirname, '../dist'));
const outdir = resolve(dist, 'composition');
const entry = resolve(outdir, 'main.js');
const CHUNK_PREFIX = 'main-chunk-';

/**
 * Packages inlined: loaded at start, and imported by no package that stays external (a package loaded twice,
 * once inlined and once from node_modules, would be two copies). pino's worker-thread transports, which
 * find their files from __dirname, are not used by the gateway (it writes to a file descriptor).
 */
const INLINE = [
  // Inversify's metadata polyfill: 113 KiB of commented CommonJS that Node's ESM loader would lex for its
  // exports at every start (about 10 ms of CPU), inlined and minified instead
  /^reflect-metadata$/,
  /^inversify$/,
  /^@inversifyjs\//,
  /^fp-ts(\/|$)/,
  /^io-ts(\/|$)/,
  /^hono(\/|$)/,
  /^@hono\/node-server(\/|$)/,
  /^lru-cache$/,
  // pino and what it loads
  /^pino$/,
  /^pino-std-serializers$/,
  /^sonic-boom$/,
  /^thread-stream$/,
  /^@pinojs\//,
  /^safe-stable-stringify$/,
  /^quick-format-unescaped$/,
  /^on-exit-leak-free$/,
  /^atomic-sleep$/,
  // the file routes' multipart reader and zip writer, the URL guard's address ranges, robots.txt
  /^@fastify\/busboy$/,
  /^yazl$/,
  /^buffer-crc32$/,
  /^ipaddr\.js$/,
  /^robots-parser$/,
];

const gateway: Plugin = {
  name: 'gateway-files',
  setup(b) {
    // fp-ts and io-ts as ES modules (their es6/ builds), which esbuild can shake: the gateway imports
    // fp-ts/lib/... (CommonJS, 188 KiB inlined whole; 67 KiB from es6/).
    b.onResolve({ filter: /^(fp-ts|io-ts)\/lib\// }, (args) =>
      b.resolve(args.path.replace('/lib/', '/es6/'), { kind: args.kind, resolveDir: args.resolveDir }),
    );
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path.startsWith('node:')) return { external: true };
      return INLINE.some((r) => r.test(args.path)) ? undefined : { external: true };
    });
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(`${dist}/`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const contents = source.includes('import.meta.url')
        ? source.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(relative(outdir, args.path))}, import.meta.url).href`,
          )
        : source;
      return { contents, loader: 'js' };
    });
  },
};

const BANNER = "import { createRequire as gatewayRequire } from 'node:module';";
if (readFileSync(entry, 'utf8').startsWith(BANNER)) {
  process.stderr.write(`${entry} is bundled already: run tsc (npm run build) first.\n`);
  process.exit(1);
}
// The chunks of an earlier build (their names carry a hash of their contents).
for (const name of readdirSync(outdir)) if (name.startsWith(CHUNK_PREFIX)) rmSync(resolve(outdir, name));

const result = await build({
  entryPoints: [entry],
  outdir,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // A package's ES module build where it names one (io-ts's es6/, which imports fp-ts/es6/).
  mainFields: ['module', 'main'],
  target: 'node20',
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  sourcemap: true,
  // Less for V8 to scan at start; names are kept, so stack traces and class names read as in the sources.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [gateway],
  // The CommonJS files of inlined packages (fp-ts, io-ts) require Node's own modules.
  banner: { js: `${BANNER}\nconst require = gatewayRequire(import.meta.url);` },
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
const kib = outputs.reduce((sum, [, o]) => sum + o.bytes, 0) / 1024;
// On stderr: `npm pack --json` runs this build (prepack) and its stdout must be the JSON alone.
process.stderr.write(`dist/composition/main.js: bundled with ${outputs.length - 1} chunks, ${kib.toFixed(0)} KiB\n`);
