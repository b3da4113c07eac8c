import { facts, h, replace } from './dom.js';
import { startView, type ToolAnswer } from './shell.js';

// The skip-trace card: each owner's phones ranked (OK to call first, then by score) with call-OK, DNC and
// TCPA badges and the reason for each phone's standing.

interface Phone {
  readonly number?: string;
  readonly type?: string;
  readonly carrier?: string;
  readonly score?: number;
  readonly dnc?: boolean;
  readonly tcpa?: boolean;
  readonly reachable?: boolean;
  readonly ok_to_call?: boolean;
  readonly lastReportedDate?: string;
}

interface Person {
  readonly name?: { readonly full?: string };
  readonly phoneNumbers?: readonly Phone[];
  readonly emails?: readonly { readonly email?: string }[];
  readonly litigator?: boolean;
  readonly death?: { readonly deceased?: boolean };
  readonly dnc?: { readonly tcpa?: boolean };
}

/** Why a phone may or may not be called, from its flags. */
export const reasonFor = (p: Phone): string => {
  const why: string[] = [];
  if (p.dnc) why.push('on a Do Not Call list');
  if (p.tcpa) why.push('TCPA risk (known litigator number)');
  if (p.reachable === false) why.push('not reachable');
  if (why.length) return `Do not call: ${why.join(', ')}.`;
  if (p.ok_to_call === false) return 'Do not call: the data provider marks it not OK to call.';
  return `OK to call: not on a DNC list, no TCPA flag${p.reachable ? ', reachable' : ''}${p.score !== undefined ? `, score ${p.score}` : ''}.`;
};

const formatNumber = (n = ''): string => (/^\d{10}$/.test(n) ? `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}` : n);

const badge = (kind: 'ok' | 'bad' | 'warn', text: string) => h('span', { class: `badge ${kind}` }, text);

const ranked = (phones: readonly Phone[]): Phone[] =>
  [...phones].sort(
    (a, b) => Number(b.ok_to_call ?? false) - Number(a.ok_to_call ?? false) || (b.score ?? 0) - (a.score ?? 0),
  );

const personCard = (person: Person, index: number) => {
  const phones = ranked(person.phoneNumbers ?? []);
  return h(
    'section',
    { 'aria-labelledby': `owner-${index}` },
    h('h2', { id: `owner-${index}` }, person.name?.full ?? `Owner ${index + 1}`),
    facts([
      ['Deceased', person.death?.deceased ? 'yes' : undefined],
      ['Litigator', person.litigator ? 'yes' : undefined],
      [
        'Emails',
        (person.emails ?? [])
          .map((e) => e.email)
          .filter(Boolean)
          .join(', ') || undefined,
      ],
    ]),
    phones.length
      ? h(
          'ol',
          { 'aria-label': 'Phones, best first' },
          ...phones.map((p) =>
            h(
              'li',
              { class: 'phone' },
              h('strong', {}, formatNumber(p.number)),
              ` ${[p.type, p.carrier].filter(Boolean).join(' · ')}`,
              h(
                'div',
                {},
                p.ok_to_call && !p.dnc && !p.tcpa ? badge('ok', 'OK to call') : badge('bad', 'Do not call'),
                p.dnc ? badge('bad', 'DNC') : badge('ok', 'Not DNC'),
                p.tcpa ? badge('bad', 'TCPA') : badge('ok', 'No TCPA'),
                p.reachable === false ? badge('warn', 'Unreachable') : false,
              ),
              h('p', { class: 'muted' }, reasonFor(p)),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No phone numbers found.'),
  );
};

const render = (answer: ToolAnswer, root: HTMLElement): void => {
  const results = (answer.structuredContent?.['results'] ?? {}) as { persons?: readonly Person[] };
  const persons = results.persons ?? [];
  replace(
    root,
    h('h1', {}, persons.length === 1 ? 'Owner found' : `${persons.length} owners found`),
    ...(persons.length ? persons.map(personCard) : [h('p', {}, 'No owner matched: nothing was billed.')]),
  );
};

startView('skiptrace', (answer, ctx) => render(answer, ctx.root));
