import { describe, expect, it } from 'vitest';
import { matchNames, wordsApart } from '../../application/runtime/name-terms.js';
import { words } from '../../application/runtime/tool-search.js';
import { searchFixture } from './tool-search-fixture.js';

// Issue 41, the eighth round: tuned for the second and third places, with held-out-8 as a dev set. Each test
// shows the ranking with the rule and without it (the rule's part of the query left out, or the same request
// without what triggers it). The seventh round's rules are pinned in tool-search-clauses.test.ts.

const { demoNames, terms, rank, top, without } = searchFixture('eighth-test');

describe('a verb nothing knows does what its preposition says', () => {
  it('a thing put "on" another changes it ("slap a description on the folder")', async () => {
    const q = await terms('Slap a short description on the Contracts folder');
    expect(q.question).toBe(false);
    expect(q.verbRelated).toEqual(['updat']);
    expect(rank(q)).toEqual(['files_updateItem']);
    const plain = without(q, { question: true, verbRelated: [] }, (t) => t.implied === undefined);
    expect(rank(plain, 3)).not.toContain('files_updateItem');
  });

  it('things brought "to" a state change, many of them in a batch ("bump these 12 deals to closed won")', async () => {
    const q = await terms('Bump these 12 deals to closed won');
    expect(rank(q)).toEqual(['records_batchUpdateRecords']);
    const plain = without(q, { question: true, verbRelated: [] }, (t) => t.implied === undefined);
    expect(rank(plain)).not.toEqual(['records_batchUpdateRecords']);
  });

  it('a thing of its own put "on" another is a new one ("yeet a note on deal 12": a comment)', async () => {
    const q = await terms('Yeet a note on deal 12 about the roof');
    expect(q.verbRelated).toEqual(['creat']);
    expect(rank(q)).toEqual(['records_createRecordComment']);
    expect((await terms('Yeet a label on deal 12')).verbRelated).toEqual(['updat']);
  });

  it('"into" a place adds, into the trash throws away', async () => {
    expect((await terms('Yeet a few rows into the Leads app')).verbRelated).toEqual(['creat']);
    expect((await terms('Yeet the old notes into the trash')).verbRelated).toEqual(['delet']);
  });

  it('one taken "off" or "out" of a place is removed, a person named with capitals too', async () => {
    const q = await terms('Yeet Omar Haddad off the Harbor Ops space');
    expect(q.verbRelated).toEqual(['delet']);
    expect(rank(q, 3)).toContain('workspaces_endSpaceMemberships');
    expect((await terms('Yeet these 3 old leads out of the Leads app')).verbRelated).toEqual(['delet']);
  });

  it('a thing brought "to" a person is sent, not changed', async () => {
    const q = await terms('Shoot the lease agreement over to Grace Thompson');
    expect(q.verbRelated).toEqual(['send']);
    expect(rank(q)).toEqual(['files_sendShareNotification']);
    expect((await terms('Shoot these 3 deals over to closed won')).verbRelated).toEqual(['updat']);
  });

  it('not the preposition of a participle, nor for a word before another verb or before a past verb', async () => {
    // "assigned to" is not what "grab" does; "gotta" stands before the verb; "Priya" is the subject
    expect((await terms('grab all the work orders assigned to Priya Shah')).verbRelated).toEqual([]);
    expect((await terms('Gotta push a video into the Photos folder')).verbRelated).not.toContain('creat');
    expect((await terms('Priya moved into underwriting, update her job title in the CRM')).verbRelated).toEqual([]);
    // a word the word lists know keeps its own meaning
    expect((await terms('Open the Contracts folder to the team')).verbRelated).not.toContain('updat');
  });
});

describe('a verb of throwing away with "into" a place that is no bin', () => {
  it('into an app adds a record, many of them in a batch', async () => {
    expect(await top('Throw a new work order into the Work Orders app for 12 Pine St')).toEqual([
      'records_createRecord',
    ]);
    // the same verb and object without "into" the app: the word list's "throw" (delete) speaks
    expect(await top('Throw a new work order for 12 Pine St', 3)).not.toContain('records_createRecord');
    expect(await top('Dump these 40 homes from the spreadsheet into the Properties app')).toEqual([
      'records_batchCreateRecords',
    ]);
  });

  it('into a folder moves the thing; into the trash still throws it away', async () => {
    expect(await top('Toss the site notes into the Contracts folder')).toEqual(['files_moveItem']);
    expect(await top('Toss the site notes in the Contracts folder')).not.toEqual(['files_moveItem']);
    expect(await top('Throw the old lease into the trash', 3)).toContain('files_deleteItem');
  });
});

describe("a verb's particle and who it is for", () => {
  it('"open up" a place to people changes it; "open up" a file still shows it', async () => {
    expect(await top('Open up the Harbor Ops space to everyone')).toEqual(['workspaces_updateSpace']);
    // the same place without the people it is opened to: "open" shows
    expect(await top('Open up the Harbor Ops space', 3)).not.toContain('workspaces_updateSpace');
    expect(await top('open up budget.csv')).toEqual(['files_readFile']);
  });
});

describe("the tenant's names", () => {
  it('a name of several words is written together, not across "the" or "have"', async () => {
    const q = await terms('Which leads have the status Open?');
    expect(q.groups && [...q.groups]).toEqual(['records']);
    expect(rank(q)).toEqual(['records_filterRecords']);
    // with the rule and without it: "leads the status" read as "lead status" is the CRM's property
    const text = 'filter leads the status open';
    const list = words(text);
    expect(matchNames(list, await demoNames()).groups.has('crm')).toBe(true);
    expect(
      matchNames(
        list,
        await demoNames(),
        wordsApart(text, () => false),
      ).groups.has('crm'),
    ).toBe(false);
    // written together, the words are the CRM's Lead Status property
    expect((await terms('Which lead status is Open?')).groups?.has('crm')).toBe(true);
  });
});

describe('what the object of a command points to fills the places after the first', () => {
  it('a thing the tool\'s name says besides its verb ranks it, whatever the verb ("set up the upload")', async () => {
    const q = await terms('We have a 3 GB video of the roof to put in the Photos folder, can you set up the upload?');
    expect(q.object).toContain('upload');
    expect(rank(q, 3)).toContain('files_getUploadUrl');
    expect(rank(without(q, { object: [] }), 3)).not.toContain('files_getUploadUrl');
  });

  it('"sent" is a past "send": what was sent out is shares', async () => {
    const q = await terms('Which links have I sent out of ShareFile lately?');
    expect(rank(q, 3)).toContain('files_listShares');
    expect(
      rank(
        without(q, {}, (t) => t.word !== 'sent'),
        3,
      ),
    ).not.toContain('files_listShares');
  });
});

describe('a place named by what is kept in it', () => {
  it('"anything in our documents" names the files when no name does', async () => {
    const q = await terms('Looking for anything in our documents about the roof leak');
    expect(q.groups && [...q.groups]).toEqual(['files']);
    expect(rank(q)).toEqual(['files_searchItems']);
    expect(rank(without(q, { groups: new Set() }))).not.toEqual(['files_searchItems']);
  });
});

describe('what a person has', () => {
  it("a name in the possessive that the tenant has no name for is a person's: members, memberships, contacts", async () => {
    const q = await terms("I need Lena Fischer's profile id for the Owner field of a lead");
    expect(q.some((t) => t.word === 'member' && t.implied !== undefined)).toBe(true);
    expect(rank(q, 3)).toContain('workspaces_getSpaceMembers');
    expect(
      rank(
        without(q, {}, (t) => t.implied === undefined),
        3,
      ),
    ).not.toContain('workspaces_getSpaceMembers');
    // a question's "What's" is no one's
    expect((await terms("What's on Podio item 5120?")).some((t) => t.word === 'member')).toBe(false);
  });
});
