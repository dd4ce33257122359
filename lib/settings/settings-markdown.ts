import type { AnySetting, SettingsArea } from './setting';

/** A part of the generated document: a heading, a paragraph, and a table per area under it. */
export interface SettingsChapter {
  title: string;
  intro: string;
  areas: readonly SettingsArea[];
}

/** docs/configuration.md, generated from the tables so it cannot drift from what the code reads. */
export function renderSettingsMarkdown(preamble: string, chapters: readonly SettingsChapter[]): string {
  const parts = [preamble.trim()];
  for (const chapter of chapters) {
    parts.push(`## ${chapter.title}`, chapter.intro.trim());
    for (const area of chapter.areas) {
      parts.push(`### ${area.title}`, renderTable(Object.values(area.settings)));
    }
  }
  return `${parts.join('\n\n')}\n`;
}

function renderTable(settings: readonly AnySetting[]): string {
  const rows = settings.map((setting) =>
    [`\`${setting.env}\``, typeOf(setting), defaultOf(setting), setting.doc].map(cell).join(' | '),
  );
  return [
    '| variable | type | default | meaning |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

function typeOf(setting: AnySetting): string {
  return setting.type.secret ? `${setting.type.description}, secret` : setting.type.description;
}

function defaultOf(setting: AnySetting): string {
  if (setting.defaultDoc !== undefined) return setting.defaultDoc;
  const code = (value: string): string => `\`${value}\``;
  const everywhere = setting.default === undefined ? '—' : code(setting.default);
  if (setting.required === 'always') return 'required';
  if (setting.testOnly) return 'unset; tests only (production refuses it)';
  const required = setting.required === 'production' ? 'required in production' : undefined;
  if (setting.localDefault === undefined) return required ?? everywhere;
  return `${code(setting.localDefault)} in the local stack; ${required ?? (setting.default === undefined ? 'unset' : everywhere)} otherwise`;
}

/** A table cell: a `|` would end it and a newline would end the table. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
