import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGURATION_DOC_PATH, configurationDoc } from './configuration-doc';

/** `npm run docs:config`: regenerates docs/configuration.md from the setting tables. */
const target = join(__dirname, '..', '..', CONFIGURATION_DOC_PATH);
writeFileSync(target, configurationDoc());
process.stdout.write(`wrote ${CONFIGURATION_DOC_PATH}\n`);
