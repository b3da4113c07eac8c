import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureResilience } from '../../../adapters/outbound/http/resilience.js';
import type { ShareFileClient } from '../../../adapters/outbound/sharefile/sharefile-client.js';
import { ShareFileShareStore } from '../../../adapters/outbound/sharefile/sharefile-share-store.js';
import { FixedClock } from '../../../adapters/outbound/system-clock.js';
import type { NewShare, ShareType } from '../../../domain/files/share.js';
import { E } from '../../../domain/shared/fp.js';
import { shareFileTestClient, startShareFileServer, type ShareFileStandIn } from '../../fakes/sharefile-server.js';

// Issue 31, doubtful points: no document shows the Shares feed honours `$filter=ShareType eq '...'`
// (ShareFile-NET SharesEntity.Get takes no type). Shares are listed without it and the other type is dropped
// after the answer; the stand-in records a $filter as a departure and ignores it.

configureResilience({ maxAttempts: 1, breakerFailures: 1_000_000 });

describe('ShareFile shares of one type', () => {
  const clock = new FixedClock(new Date('2026-11-27T10:00:00.000Z'));
  let fake: ShareFileStandIn;
  let client: ShareFileClient;
  const sent: string[] = [];
  const share = (type: ShareType, itemId: string, title: string): NewShare => ({
    shareType: type,
    itemIds: type === 'Send' ? [itemId] : [],
    ...(type === 'Request' ? { parentId: 'home' } : {}),
    title,
    maxDownloads: 3,
    requireLogin: false,
    requireUserInfo: false,
    isViewOnly: false,
    notifyOnDownload: false,
    notifyOnUpload: false,
    recipients: [],
  });
  const listCalls = () => fake.requests.filter((q) => q.method === 'GET' && q.path === '/sf/v3/Shares');

  beforeAll(async () => {
    fake = await startShareFileServer({ clock });
    client = shareFileTestClient(fake, clock);
    const file = fake.items.addFile('home', 'shared.txt', new TextEncoder().encode('s'), { overwrite: false });
    if (E.isLeft(file)) throw new Error('file');
    // five shares, newest last: Send, Request, Send, Request, Send
    for (const [i, type] of (['Send', 'Request', 'Send', 'Request', 'Send'] as const).entries()) {
      clock.advance(60_000);
      const s = await fake.shares.create(share(type, file.right.item.Id, `${type} ${i}`))();
      if (E.isLeft(s)) throw new Error(s.left.message);
      if (type === 'Send') sent.unshift(s.right.Id);
    }
  });
  afterAll(() => fake.close());

  it('reads the feed without $filter and pages over the shares of the type', async () => {
    const store = new ShareFileShareStore(client, { page: 2, pages: 10 });
    const before = listCalls().length;
    const first = await store.list({ shareType: 'Send', top: 2, skip: 0, includeExpired: false })();
    if (E.isLeft(first)) throw new Error(first.left.message);
    expect(first.right.shares.map((s) => s.Id)).toEqual(sent.slice(0, 2));
    expect(first.right.shares.every((s) => s.ShareType === 'Send')).toBe(true);
    // totalCount counts the Send shares only
    expect(first.right.totalCount).toBe(3);
    const calls = listCalls().slice(before);
    expect(calls.map((q) => [q.query.get('$skip'), q.query.get('$top')])).toEqual([
      ['0', '2'],
      ['2', '2'],
      ['4', '2'],
    ]);
    expect(calls.some((q) => q.query.has('$filter'))).toBe(false);
    const second = await store.list({ shareType: 'Send', top: 2, skip: 2, includeExpired: false })();
    if (E.isLeft(second)) throw new Error(second.left.message);
    expect(second.right.shares.map((s) => s.Id)).toEqual(sent.slice(2));
    expect(second.right.totalCount).toBe(3);
    expect(fake.violations).toEqual([]);
  });

  it('reads an account of up to a page of shares in one call', async () => {
    const before = listCalls().length;
    const r = await new ShareFileShareStore(client).list({
      shareType: 'Request',
      top: 50,
      skip: 0,
      includeExpired: false,
    })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.shares.map((s) => s.Title)).toEqual(['Request 3', 'Request 1']);
    expect(r.right.totalCount).toBe(2);
    expect(
      listCalls()
        .slice(before)
        .map((q) => q.query.get('$top')),
    ).toEqual(['500']);
  });

  it('past the scan, totalCount is the count found, marked a lower bound, and a page beyond it is empty (issue 42)', async () => {
    const store = new ShareFileShareStore(client, { page: 2, pages: 1 });
    const r = await store.list({ shareType: 'Send', top: 5, skip: 0, includeExpired: false })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.shares.map((s) => s.Id)).toEqual(sent.slice(0, 1));
    expect(r.right.totalCount).toBe(1);
    expect(r.right.scanEnded?.note).toContain('list without share_type from skip 2');
    const past = await store.list({ shareType: 'Send', top: 5, skip: 1, includeExpired: false })();
    if (E.isLeft(past)) throw new Error(past.left.message);
    expect(past.right.shares).toEqual([]);
    expect(past.right.scanEnded?.note).toContain('list without share_type from skip 2');
  });

  it('none of the type in the scan: skip 0 is an empty page that says the scan ran out, not a refusal', async () => {
    // the newest share is a Send: a scan of one share finds no Request share
    const store = new ShareFileShareStore(client, { page: 1, pages: 1 });
    const r = await store.list({ shareType: 'Request', top: 5, skip: 0, includeExpired: false })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right).toMatchObject({ totalCount: 0, shares: [] });
    expect(r.right.scanEnded?.note).toContain('found 0 of them');
  });

  it('without a type, the page is one call and totalCount is the feed count', async () => {
    const before = listCalls().length;
    const r = await new ShareFileShareStore(client).list({ top: 2, skip: 1, includeExpired: false })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.shares).toHaveLength(2);
    expect(r.right.totalCount).toBe(5);
    expect(
      listCalls()
        .slice(before)
        .map((q) => [q.query.get('$skip'), q.query.get('$top')]),
    ).toEqual([['1', '2']]);
  });

  it('the stand-in records a $filter on the Shares feed as a departure', async () => {
    const r = await client.send({ method: 'GET', path: '/Shares', query: { $filter: "ShareType eq 'Send'" } });
    expect(E.isRight(r)).toBe(true);
    expect(fake.violations.map((v) => v.problems.join())).toEqual([
      'GET /Shares: no document shows the feed honours $filter',
    ]);
    fake.violations.length = 0;
  });
});
