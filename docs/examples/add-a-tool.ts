// Adding a tool: one declaration in application/<group>/ (its parameters codec, its use case over the
// group's ports, its description and annotations, its text presenter), added to the group's list
// (application/<group>/index.ts, gathered in application/tools.ts as allTools). The registry then derives
// its JSON Schema and its listing, REST gets `/v1/tools/<group>/<name>`, and MCP lists it.
// Here a made-up `crm_countProperties` is declared, registered beside the real tools, and run on the demo
// data. CI type-checks and runs this file (`npx tsx docs/examples/add-a-tool.ts`); after adding a real tool,
// refresh the listing snapshot: `npx vitest run test/application/registry.test.ts -u`.
import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import { allTools } from '../../application/tools.js';
import { described, oneOf, params, t } from '../../application/runtime/codecs.js';
import { defineTool, type UseCase } from '../../application/runtime/define-tool.js';
import { ToolRegistry } from '../../application/runtime/registry.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ContactBook } from '../../ports/contact-book.js';

/** The parameters: an io-ts codec, from which the JSON Schema and the argument checks are derived. */
const CountPropertiesParams = params(
  {},
  {
    object_type: described(
      oneOf(['contacts', 'companies'] as const, 'ObjectType'),
      'Which object to count the properties of.',
      'contacts',
    ),
  },
);
type CountPropertiesParams = t.TypeOf<typeof CountPropertiesParams>;

interface PropertyCount {
  readonly objectType: string;
  readonly total: number;
  readonly readOnly: number;
}

/** The use case: names the ports it uses in its constructor, answers a TaskEither, never throws. */
@injectable()
class CountProperties implements UseCase<CountPropertiesParams, PropertyCount> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  execute(p: CountPropertiesParams): TaskEither<GatewayError, PropertyCount> {
    return pipe(
      this.contacts.properties(p.object_type),
      TE.map((all) => ({
        objectType: p.object_type,
        total: all.length,
        readOnly: all.filter((d) => d.readOnly).length,
      })),
    );
  }
}

const countPropertiesTool = defineTool({
  group: 'crm',
  name: 'countProperties',
  title: 'Count CRM properties',
  description: 'Counts the properties of contacts or companies, and how many of them are read-only.',
  annotations: { kind: 'Read', idempotent: true },
  params: CountPropertiesParams,
  useCase: CountProperties,
  json: (r) => ({ object_type: r.objectType, total: r.total, read_only: r.readOnly }),
  text: (r) => `${r.objectType}: ${r.total} properties, ${r.readOnly} read-only.`,
});

// Registered beside the real tools, as application/tools.ts would hold it: the registry checks it (no name
// declared twice, continuations to declared tools) and derives its listing.
const registry = new ToolRegistry([...allTools, countPropertiesTool]);
const listed = registry.listing().find((tool) => tool.name === 'crm_countProperties');

// Arguments are checked by the codec; the use case runs on the port (the demo data here).
const args = CountPropertiesParams.decode({ object_type: 'companies' });
const useCase = new CountProperties(new InMemoryContactBook({ clock: new SystemClock() }));
const outcome = E.isRight(args) ? await useCase.execute(args.right)() : undefined;

const checks: [string, boolean][] = [
  ['the registry lists crm_countProperties with its annotations', listed?.readOnlyHint === true],
  ['the arguments pass the codec', E.isRight(args)],
  ['a wrong object_type is refused by the codec', E.isLeft(CountPropertiesParams.decode({ object_type: 'deals' }))],
  ['the use case counts the demo properties', outcome !== undefined && E.isRight(outcome) && outcome.right.total > 0],
];
for (const [what, ok] of checks) process.stdout.write(`${ok ? 'ok' : 'FAILED'}  ${what}\n`);
if (checks.some(([, ok]) => !ok)) process.exit(1);
