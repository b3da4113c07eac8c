import { describe, expect, it } from 'vitest';
import { ToolRegistry, type ToolListing } from '../../application/runtime/registry.js';
import { allTools } from '../../application/tools.js';
import type { JsonSchema } from '../../application/runtime/json-schema.js';
import { defineTool } from '../../application/runtime/define-tool.js';
import { GetContact, GetContactParams } from '../../application/crm/get-contact.js';

const listing = new ToolRegistry(allTools).listing();

const everyProperty = (schema: JsonSchema, path: string, visit: (path: string, s: JsonSchema) => void) => {
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    visit(`${path}.${name}`, sub);
    everyProperty(sub, `${path}.${name}`, visit);
    if (sub.items) everyProperty(sub.items, `${path}.${name}[]`, visit);
  }
};

describe('the tool registry', () => {
  it('has unique names of the form <group>_<tool> that every model vendor accepts', () => {
    const names = listing.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of listing) {
      expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(t.name.startsWith(`${t.group}_`)).toBe(true);
    }
  });

  it('gives every tool a top-level object schema with required, no extra members and described properties', () => {
    for (const t of listing) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(Array.isArray(t.inputSchema.required), t.name).toBe(true);
      expect(t.description.length, t.name).toBeGreaterThan(40);
      everyProperty(t.inputSchema, t.name, (path, s) => {
        expect(s.description, `${path} has no description`).toBeTruthy();
        if (s.type === 'object' && s.properties) expect(s.additionalProperties, path).toBe(false);
      });
    }
  });

  it('never marks a Read tool destructive and sets every MCP hint explicitly', () => {
    for (const t of listing) {
      expect(typeof t.readOnlyHint).toBe('boolean');
      expect(typeof t.destructiveHint).toBe('boolean');
      expect(typeof t.idempotentHint).toBe('boolean');
      expect(typeof t.openWorldHint).toBe('boolean');
      if (t.readOnlyHint) expect(t.destructiveHint, t.name).toBe(false);
      expect(t.annotations[0]).toBe(t.readOnlyHint ? 'Read' : t.destructiveHint ? 'Destructive' : 'Write');
      expect(t.annotations.includes('Idempotent')).toBe(t.idempotentHint);
      expect(t.permission).toBe(`${t.group}:${t.annotations[0]!.toLowerCase()}`);
    }
  });

  it('refuses a tool declared twice', () => {
    const tool = defineTool({
      group: 'crm',
      name: 'getContact',
      title: 'dup',
      description: 'dup',
      annotations: { kind: 'Read', idempotent: true },
      params: GetContactParams,
      useCase: GetContact,
      text: () => '',
    });
    expect(() => new ToolRegistry([...allTools, tool])).toThrow(/declared twice/);
  });

  it('refuses a continuation into a tool that is not declared', () => {
    const tool = defineTool({
      group: 'crm',
      name: 'getContactPages',
      title: 'pages',
      description: 'pages',
      annotations: { kind: 'Read', idempotent: true },
      params: GetContactParams,
      useCase: GetContact,
      continuesWith: 'crm_listContactPages',
      continuation: () => ({}),
      text: () => '',
    });
    expect(() => new ToolRegistry([...allTools, tool])).toThrow(/continues with crm_listContactPages/);
  });

  it('lists the tools in a stable order: group order, then declaration order', () => {
    const crm = listing.filter((t) => t.group === 'crm').map((t) => t.name);
    expect(crm).toEqual([
      'crm_createContact',
      'crm_getContact',
      'crm_updateContact',
      'crm_deleteContact',
      'crm_searchContacts',
      'crm_getProperties',
    ]);
  });

  it('changes the public listing only on purpose (snapshot)', async () => {
    await expect(`${JSON.stringify(listing satisfies ToolListing[], null, 2)}\n`).toMatchFileSnapshot(
      '__snapshots__/tool-listing.json',
    );
  });
});
