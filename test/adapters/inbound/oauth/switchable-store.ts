import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

/** oidc-provider's storage in a Map, which a test can take away (every call then fails as a lost database would). */
export const switchableStore = () => {
  const rows = new Map<string, AdapterPayload>();
  let down = false;
  const factory: AdapterFactory = (model: string): Adapter => {
    const key = (id: string) => `${model}\n${id}`;
    const reachable = () => {
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    };
    const ofModel = () => [...rows].filter(([k]) => k.startsWith(`${model}\n`)).map(([, p]) => p);
    return {
      upsert: async (id, payload) => {
        reachable();
        rows.set(key(id), { ...payload });
      },
      find: async (id) => {
        reachable();
        return rows.get(key(id));
      },
      findByUid: async (uid) => {
        reachable();
        return ofModel().find((p) => p.uid === uid);
      },
      findByUserCode: async (code) => {
        reachable();
        return ofModel().find((p) => p.userCode === code);
      },
      consume: async (id) => {
        reachable();
        const p = rows.get(key(id));
        if (p) p.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => {
        reachable();
        rows.delete(key(id));
      },
      revokeByGrantId: async (grantId) => {
        reachable();
        for (const [k, p] of rows) if (k.startsWith(`${model}\n`) && p.grantId === grantId) rows.delete(k);
      },
    };
  };
  return {
    factory,
    set down(value: boolean) {
      down = value;
    },
  };
};
