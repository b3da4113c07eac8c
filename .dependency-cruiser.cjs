// The hexagon's dependency rules, checked by `npm run lint:deps` (part of `npm run lint`) and in CI.
//   domain       <- nothing of ours (fp-ts only)
//   ports        <- domain
//   application  <- domain, ports
//   adapters     <- domain, ports, application; a vendor adapter family shares only adapters/outbound/http
//   composition  <- everything; nothing imports the composition
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes start-up order and testing in isolation fragile.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-imports-nothing-outward',
      severity: 'error',
      comment: 'The domain is pure: it imports only itself and fp-ts.',
      from: { path: '^domain/' },
      to: { pathNot: ['^domain/', '^node_modules/fp-ts/'] },
    },
    {
      name: 'ports-import-only-domain',
      severity: 'error',
      comment: 'Ports are interfaces over domain types; inversify gives them their service identifiers.',
      from: { path: '^ports/' },
      to: { pathNot: ['^ports/', '^domain/', '^node_modules/(inversify|fp-ts)/'] },
    },
    {
      name: 'application-imports-domain-and-ports',
      severity: 'error',
      from: { path: '^application/' },
      to: { path: '^(adapters|composition)/' },
    },
    {
      name: 'adapters-do-not-import-composition',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^composition/' },
    },
    {
      name: 'production-code-does-not-import-tests',
      severity: 'error',
      from: { path: '^(domain|ports|application|adapters|composition)/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'vendor-adapters-share-only-http',
      severity: 'error',
      comment:
        'One outbound adapter family (hubspot, podio, sharefile, batchdata, memory, redis, auth, observability) ' +
        'never imports another; shared vendor plumbing lives in adapters/outbound/http, and the parser pool every ' +
        'reader of untrusted documents uses in adapters/outbound/documents.',
      from: { path: '^adapters/outbound/([^/]+)/' },
      to: {
        path: '^adapters/outbound/([^/]+)/',
        pathNot: ['^adapters/outbound/$1/', '^adapters/outbound/http/', '^adapters/outbound/documents/'],
      },
    },
    {
      name: 'inbound-and-outbound-adapters-stay-apart',
      severity: 'error',
      from: { path: '^adapters/inbound/' },
      to: { path: '^adapters/outbound/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
