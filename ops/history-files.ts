import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
const { History: HistoryMessage } = temporal.api.history.v1;

/**
 * Workflow histories as reviewable JSON files (test/histories). Written and read with the generated proto
 * code's own toObject/fromObject (int64 as strings, enums by name, bytes as base64), not with
 * `historyToJSON`/`historyFromJSON` from @temporalio/common: in this install @temporalio/common and
 * @temporalio/proto each carry their own copy of protobufjs 8 (the OpenTelemetry exporter pins protobufjs 7 at
 * the top level), and protojson's `instanceof Type` check fails across the two copies.
 */
export function historyToFileText(history: History): string {
  const object = HistoryMessage.toObject(HistoryMessage.fromObject(history), { longs: String, enums: String, bytes: String });
  return `${JSON.stringify(object, null, 2)}\n`;
}

export function historyFromFileText(text: string): temporal.api.history.v1.History {
  return HistoryMessage.fromObject(JSON.parse(text) as Record<string, unknown>);
}
