import { createHash } from 'node:crypto';
import { E } from '../../../../domain/shared/fp.js';
import type { InMemoryItemStore } from '../in-memory-item-store.js';

/** Ids that look like ShareFile's and are the same on every start, so that examples keep working. */
export const demoIds = (): ((prefix: 'fo' | 'fi' | 'up') => string) => {
  let n = 0;
  return (prefix) => `${prefix}${createHash('sha1').update(`files-demo-${++n}`).digest('hex').slice(0, 14)}`;
};

const day = (d: number, hour = 9) => new Date(Date.UTC(2026, 0, d, hour, 0, 0)).toISOString();
const text = (s: string) => new TextEncoder().encode(s);

/** A small account: a home folder with projects, contracts and notes, one shared folder, and a file with two versions. */
export const seedDemoFiles = (store: InMemoryItemStore): void => {
  const file = (folderId: string, name: string, body: string | Uint8Array, created: string, overwrite = false) => {
    const r = store.addFile(folderId, name, typeof body === 'string' ? text(body) : body, { overwrite, created });
    if (E.isLeft(r)) throw new Error(`demo file ${name}: ${r.left.message}`);
    return r.right.item;
  };
  const home = store.homeId;
  const projects = store.seedFolder(home, 'Projects', day(5), 'Active client projects');
  const harbor = store.seedFolder(
    projects.Id,
    'Harbor Point Renovation',
    day(6),
    'Kitchen and deck renovation for the Harbor Point condo',
  );
  file(
    harbor.Id,
    'scope-of-work.md',
    '# Harbor Point Renovation\n\nScope: replace kitchen cabinets, new quartz countertops, rebuild the rear deck with composite boards.\nStart date: 2026-02-02. Site contact: Luis Moreno.\n',
    day(6, 10),
  );
  file(harbor.Id, 'budget.csv', 'item,amount\ncabinets,8200\ncountertops,4100\ndeck,9600\n', day(7));
  file(
    harbor.Id,
    'budget.csv',
    'item,amount\ncabinets,8450\ncountertops,4100\ndeck,9900\npermits,650\n',
    day(12),
    true,
  );
  file(
    projects.Id,
    'site-visit-notes.txt',
    'Site visit 2026-01-08: water damage under the sink, deck joists rotten at the north end. Photos to follow.\n',
    day(8),
  );
  const contracts = store.seedFolder(home, 'Contracts', day(5, 11), 'Signed agreements');
  file(
    contracts.Id,
    'lease-agreement-2026.txt',
    'Commercial lease between Harborline Properties LLC and Seaside Bakery, term 2026-03-01 to 2029-02-28, monthly rent USD 3,250.\n',
    day(9),
  );
  file(
    contracts.Id,
    'vendor-nda.txt',
    'Mutual non-disclosure agreement with Coastal Cabinetry Inc., effective 2026-01-10.\n',
    day(10),
  );
  store.seedFolder(home, 'Photos', day(5, 12));
  file(
    home,
    'welcome.txt',
    'Welcome to the demo account. Try files_searchItems {"query":"deck"} or files_listChildren {"folder_id":"home"}.\n',
    day(5, 8),
  );
  const team = store.seedFolder('allshared', 'Team Shared', day(4), 'Shared with the whole office');
  file(
    team.Id,
    'onboarding-checklist.md',
    '# Onboarding\n\n- Laptop and badge\n- ShareFile and CRM accounts\n- Safety walkthrough on site\n',
    day(4, 10),
  );
  store.addFavorite(projects.Id);
};
