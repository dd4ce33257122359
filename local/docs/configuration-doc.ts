import { productAreas } from '../../lib/config/product-areas';
import { renderSettingsMarkdown } from '../../lib/settings/settings-markdown';
import { ledgerStandInArea } from '../ledger/options';
import { simulatorArea } from '../simulator/options';

export const CONFIGURATION_DOC_PATH = 'docs/configuration.md';
export const REGENERATE_COMMAND = 'npm run docs:config';

const PREAMBLE = `
# Configuration

<!-- Generated from the setting tables in lib/config/*-settings.ts, local/simulator/options.ts and
local/ledger/options.ts by \`${REGENERATE_COMMAND}\`; edit those, not this file. -->

Every process reads its settings from the environment once, at start, through one reader
([lib/settings/read-settings.ts](../lib/settings/read-settings.ts)). A bad value or a missing required one stops
the process with a single error that names every bad variable; a value inside a JSON setting is named by its path
(\`SLOWLANE_TENANTS[0].reviewers[1].token\`). Secrets are wrapped so they never reach logs or error messages.

- An empty variable counts as unset.
- Durations are written \`500ms\`, \`30s\`, \`15m\`, \`48h\`, \`7d\` or combined (\`1h30m\`); a bare number is milliseconds.
- Booleans are \`true\`/\`false\`, \`on\`/\`off\`, \`yes\`/\`no\` or \`1\`/\`0\`.
- URLs are absolute; a trailing \`/\` is dropped.
- \`SLOWLANE_ENV\` has no default: nothing runs as the local stack by accident. Defaults are the local stack's
  (\`SLOWLANE_ENV=local\`) where a row says so — loopback endpoints and the local S3 server's credentials, never a
  key or token; with \`SLOWLANE_ENV=production\` those do not apply either.
- Fail closed: a required setting that is missing, a secret we own that is weak (under 32 characters, under 10
  different characters, or a value published in this repository) and a key or token used twice each stop the
  process, all named in one error ([deployment.md](deployment.md#what-a-process-refuses-to-start-without)).
`;

/** The whole text of docs/configuration.md as the tables define it today. */
export function configurationDoc(): string {
  return renderSettingsMarkdown(PREAMBLE, [
    {
      title: 'Slowlane processes',
      intro: 'Read by the API, the workers, the operator tools and the `slowlane` CLI ([lib/config/](../lib/config/)).',
      areas: productAreas,
    },
    {
      title: 'Local stand-ins',
      intro:
        'Read by the processes `npm start` runs in place of the model provider and the accounting system. The ' +
        'simulator also takes each setting as a `--flag=value` (the env name without `SIM_`, lower case, `-`: ' +
        '`SIM_RATE_529` ↔ `--rate-529`), which wins over the environment.',
      areas: [simulatorArea, ledgerStandInArea],
    },
  ]);
}
