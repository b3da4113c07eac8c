import { describe, expect, it } from 'vitest';
import { pairRow, table, tableHead } from '../../application/runtime/markdown.js';
import { contactText } from '../../application/crm/contact-text.js';

describe('markdown tables written row by row', () => {
  const rows: [string, string][] = [
    ['firstname', 'Maria'],
    ['note', 'a | b'],
    ['address', 'line 1\nline 2\r\nline 3'],
    ['empty', ''],
  ];

  it('gives the same text as table(): the header, then each row (cells escaped)', () => {
    expect(tableHead(['Property', 'Value']) + rows.map(([a, b]) => pairRow(a, b)).join('')).toBe(
      table(['Property', 'Value'], rows),
    );
  });

  it('writes a contact’s properties as one such table, with system and empty properties left out of it', () => {
    const text = contactText({
      id: '7',
      properties: { firstname: 'Ann', company: 'A | B', phone: '', createdate: 'x', hs_object_id: '7' },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
      archived: false,
    });
    expect(text).toContain(
      table(
        ['Property', 'Value'],
        [
          ['firstname', 'Ann'],
          ['company', 'A | B'],
        ],
      ),
    );
    expect(text).toContain('Not set: phone.');
    expect(text).not.toContain('hs_object_id');
  });
});
