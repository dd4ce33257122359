import assert from './assert';
import { ConfigError, loadConfig } from '../../lib/config';

/** The one ConfigError loadConfig throws for `env`; a config that loads fails the test. */
export function configRefusal(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail('the configuration was accepted');
}
