// Kept so that `npm run readme:env` still works: the configuration table now lives in docs/configuration.md,
// written by scripts/docs-config.ts (the package.json line should become `"docs:config": "tsx scripts/docs-config.ts"`).
import { writeConfigurationDoc } from './docs-config.js';

writeConfigurationDoc();
