import { Connection, Client } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { NativeConnection } from '@temporalio/worker';
import type { Config } from './config';
import { dataConverterFor } from './payload-codec/data-converter';

/** What a connection and its data converter read; operator commands have these and none of the rest. */
type ConnectionSettings = Omit<Config['temporal'], 'fromEnvironment'>;

function connectionOptions(config: ConnectionSettings) {
  return {
    address: config.address,
    ...(config.tls || config.apiKey ? { tls: true } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey.reveal() } : {}),
  };
}

export async function connectClient(config: ConnectionSettings): Promise<Client> {
  const connection = await Connection.connect(connectionOptions(config));
  // Carries the caller's active trace into the workflows it starts, signals and updates (a no-op without tracing).
  return new Client({
    connection,
    namespace: config.namespace,
    // Inputs, results, messages, failures and memo go to the server encrypted (docs/operations.md#payload-encryption).
    dataConverter: dataConverterFor(config),
    interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
  });
}

export async function connectWorker(config: ConnectionSettings): Promise<NativeConnection> {
  return NativeConnection.connect(connectionOptions(config));
}
