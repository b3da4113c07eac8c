import { describe, expect, it } from 'vitest';
import { isCopyName } from '../../domain/files/item.js';
import { transferJson, transferText } from '../../application/files/transfer-item.js';
import { TransferResult } from '../../application/files/file-results.js';

// Issue 42: a copy ShareFile reported done but not listed yet is answered as copied, not found yet (never as
// another file, never as an error that invites a second copy).

describe('a copy not found yet', () => {
  const unseen = { kind: 'unseen', itemId: 'fi1', name: 'report.pdf', targetId: 'fo2' } as const;

  it('says copied, not found yet, and not to copy again', () => {
    const text = transferText(unseen, 'Copied');
    expect(text).toContain('Copied fi1; not found in the destination yet');
    expect(text).toContain('Do not copy again');
    expect(text).toContain('files_listChildren');
    const json = transferJson(unseen);
    expect(json).toMatchObject({ copied: true, found: false, item_id: 'fi1', target_folder_id: 'fo2' });
    expect(TransferResult.is(json)).toBe(true);
  });

  it("accepts only the source's name or ShareFile's renamed form", () => {
    expect(isCopyName('report.pdf', 'report.pdf')).toBe(true);
    expect(isCopyName('report.pdf', 'report (1).pdf')).toBe(true);
    expect(isCopyName('report.pdf', 'report (12).pdf')).toBe(true);
    expect(isCopyName('notes', 'notes (2)')).toBe(true);
    expect(isCopyName('report.pdf', 'report (x).pdf')).toBe(false);
    expect(isCopyName('report.pdf', 'other.pdf')).toBe(false);
    expect(isCopyName('report.pdf', 'report (1).txt')).toBe(false);
    expect(isCopyName('a.tar.gz', 'a.tar (1).gz')).toBe(true);
  });
});
