import { describe, expect, it } from 'vitest';
import { post, testGateway } from '../support/gateway.js';

// Approval that says the truth (issue 41): a gated call that ran says who let it (nobody, the model, a
// person); a preview names things by name, not by an address that may be no web link (memory://...).

describe('who let a gated call run', () => {
  it('with the defaults, a client that cannot ask a person: the delete says nobody confirmed it', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '104' });
    expect(r.status).toBe(200);
    expect(r.body.data).toContain('Nobody confirmed this call, neither a person nor the model');
    expect(r.body.data).toContain('this client cannot ask a person to approve it');
  });

  it('a skip trace says nobody approved the lookup', async () => {
    const g = testGateway();
    const r = await post(g, '/v1/tools/skiptrace/skipTraceProperty', { street: '1011 Rosegold St', zip: '11010' });
    expect(r.status).toBe(200);
    expect(r.body.data).toContain('Nobody approved this lookup');
  });

  it('a read, and a dry run, say nothing of it', async () => {
    const g = testGateway();
    const read = await post(g, '/v1/tools/crm/getContact', { contact_id: '101' });
    expect(read.body.data).not.toContain('Nobody');
    const dry = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '104', dry_run: true });
    expect(dry.body.data).toContain('Dry run');
    expect(dry.body.data).not.toContain('Nobody');
  });

  it('the model confirmed: the answer says so', async () => {
    const g = testGateway({}, { GATEWAY_CONFIRM_DESTRUCTIVE: 'true' });
    const first = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '104' });
    expect(first.status).toBe(428);
    const token = first.body.error.details.confirm_token as string;
    const r = await post(g, '/v1/tools/crm/deleteContact', { contact_id: '104', confirm_token: token });
    expect(r.status).toBe(200);
    expect(r.body.data).toContain('Confirmed by the model');
  });
});

describe('previews name things', () => {
  it("a record's delete names its app, not its address", async () => {
    const g = testGateway();
    const dry = await post(g, '/v1/tools/records/deleteRecord?format=json', { record_id: 70025, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data.would).toContain('of the app Leads');
    expect(JSON.stringify(dry.body.data)).not.toContain('memory://');
    expect(dry.body.data.preview).toMatchObject({ app: 'Leads', record_id: 70025 });
  });
});
