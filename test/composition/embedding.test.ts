import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

it('embeds in a separate Node program through the package entry and answers as HTTP would', async () => {
  // --conditions=source resolves 'tool-gateway' to the TypeScript sources; CI also runs the program against the build.
  const { stdout } = await run(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'test/composition/embed-program.mjs'],
    { cwd: root, timeout: 30_000 },
  );
  const out = JSON.parse(stdout);
  expect(out.text.status).toBe(200);
  expect(out.text.body.data).toContain('Maria Alvarez (id 101)');
  expect(out.text).toEqual(out.http);
  expect(out.json.body.data.total).toBe(2);
  expect(out.denied).toMatchObject({
    status: 403,
    body: { success: false, error: { code: 'FORBIDDEN', details: { permission: 'crm:destructive' } } },
  });
  expect(out.tools).toBeGreaterThanOrEqual(7);
}, 40_000);
