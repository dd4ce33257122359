import { ConfigError } from './config-error';
import type { AnySetting, Deployment, Problem, Setting, SettingTable, SettingValues } from './setting';
import type { RawValue, SettingSource } from './setting-sources';

/**
 * Reads settings from sources (later sources win) and collects every problem, so a misconfigured process
 * names all of them in one error at start (finish()).
 */
export class SettingsReader {
  private readonly problems: string[] = [];

  constructor(
    private readonly sources: readonly SettingSource[],
    private readonly deployment: Deployment = 'local',
  ) {}

  read<T, V>(setting: Setting<T, V>, key: string = setting.env): V {
    const given = this.rawValueOf(setting, key);
    if (given && setting.testOnly && this.deployment === 'production') {
      this.problems.push(`${setting.env} is a test hook: production refuses to start with it set`);
      return undefined as V;
    }
    if (given) return this.parse(setting, given) as V;
    if (setting.required === 'always') {
      this.problems.push(`${setting.env} is required`);
      return undefined as V;
    }
    if (this.deployment === 'production' && setting.required === 'production') {
      this.problems.push(`${setting.env} is required in production`);
      return undefined as V;
    }
    const fallback = this.deployment === 'local' ? (setting.localDefault ?? setting.default) : setting.default;
    if (fallback === undefined) return undefined as V;
    return this.parse(setting, { raw: fallback, label: `${setting.env}'s default` }) as V;
  }

  readTable<Table extends SettingTable>(table: Table): SettingValues<Table> {
    const values: Record<string, unknown> = {};
    for (const [key, setting] of Object.entries(table)) values[key] = this.read(setting, key);
    return values as SettingValues<Table>;
  }

  /** Whether a source set it, as opposed to a default. */
  isSet(setting: AnySetting, key: string = setting.env): boolean {
    return this.rawValueOf(setting, key) !== undefined;
  }

  /** A problem no single setting can see (two settings sharing a secret); reported with the rest at finish(). */
  report(problem: string): void {
    this.problems.push(problem);
  }

  /** Throws one ConfigError naming every problem found so far. */
  finish(): void {
    if (this.problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${this.problems.join('\n  - ')}`);
  }

  private rawValueOf(setting: AnySetting, key: string): RawValue | undefined {
    let found: RawValue | undefined;
    for (const source of this.sources) found = source(key, setting) ?? found;
    return found;
  }

  private parse(setting: AnySetting, { raw, label }: RawValue): unknown {
    const parsed = setting.type.parse(raw);
    if (parsed.ok) return parsed.value;
    this.problems.push(...parsed.problems.map((problem) => describeProblem(setting, label, raw, problem)));
    return undefined;
  }
}

function describeProblem(setting: AnySetting, label: string, raw: string, problem: Problem): string {
  // A secret is never repeated; a long value would bury the message (a path inside it says where to look).
  const showValue = problem.path === '' && !setting.type.secret && raw.length <= 80;
  return `${label}${showValue ? `=${raw}` : problem.path} ${problem.message}`;
}

/** Reads one table and throws every problem at once: the whole job for a process with a single table. */
export function readSettings<Table extends SettingTable>(
  table: Table,
  sources: readonly SettingSource[],
  deployment: Deployment = 'local',
): SettingValues<Table> {
  const reader = new SettingsReader(sources, deployment);
  const values = reader.readTable(table);
  reader.finish();
  return values;
}
