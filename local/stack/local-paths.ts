import { join } from 'node:path';
import { deploymentArea } from '../../lib/config/deployment-settings';
import { readSettings } from '../../lib/settings/read-settings';
import { fromEnv, type Env } from '../../lib/settings/setting-sources';

const { dataDir, cacheHome, toolCacheDir } = deploymentArea.settings;

/**
 * Where the local stack keeps its data and tools, read before any product config exists (the stack generates the
 * secrets that config needs, in this data folder).
 */
export function localPaths(env: Env = process.env): { dataDir: string; toolCacheDir: string } {
  const values = readSettings({ dataDir, cacheHome, toolCacheDir }, [fromEnv(env)]);
  return { dataDir: values.dataDir, toolCacheDir: values.toolCacheDir ?? join(values.cacheHome, 'slowlane') };
}
