import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../composition/config.js';

// TENANT_SETTINGS over HUMAN_APPROVAL and TOOL_SEARCH_ABOVE: a tenant named gets its own, the others the
// defaults; a wrong value stops start-up with the variable's name.

describe('tenant settings from configuration', () => {
  it('defaults to approval when possible and no automatic tool search', () => {
    const config = loadConfig({});
    expect(config._tag).toBe('Right');
    if (config._tag !== 'Right') return;
    expect(config.right.tenantSettings.of('default')).toEqual({ humanApproval: 'when_possible', toolSearchAbove: 0 });
  });

  it("gives a named tenant its own settings over the gateway's defaults", () => {
    const config = loadConfig({
      HUMAN_APPROVAL: 'off',
      TOOL_SEARCH_ABOVE: '50',
      TENANT_SETTINGS: JSON.stringify({ acme: { human_approval: 'required' }, beta: { tool_search_above: 5 } }),
    });
    if (config._tag !== 'Right') throw new Error(JSON.stringify(config.left));
    const settings = config.right.tenantSettings;
    expect(settings.of('acme')).toEqual({ humanApproval: 'required', toolSearchAbove: 50 });
    expect(settings.of('beta')).toEqual({ humanApproval: 'off', toolSearchAbove: 5 });
    expect(settings.of('other')).toEqual({ humanApproval: 'off', toolSearchAbove: 50 });
  });

  it.each([
    ['an unknown mode', { acme: { human_approval: 'sometimes' } }],
    ['a negative size', { acme: { tool_search_above: -1 } }],
    ['a fraction', { acme: { tool_search_above: 2.5 } }],
    ['a bad tenant id', { 'a b': {} }],
    ['a list', [{ human_approval: 'off' }]],
  ])('refuses %s, naming TENANT_SETTINGS', (_, value) => {
    const config = loadConfig({ TENANT_SETTINGS: JSON.stringify(value) });
    expect(config._tag).toBe('Left');
    if (config._tag === 'Left') expect(config.left.join('\n')).toContain('TENANT_SETTINGS');
  });
});
