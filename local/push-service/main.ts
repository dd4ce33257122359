import { startPushServiceStandIn } from './push-service';

/** `tsx local/push-service/main.ts`: the push-service stand-in as a process on 127.0.0.1:$PUSH_SERVICE_PORT (8790). */
async function main(): Promise<void> {
  const service = await startPushServiceStandIn({ port: Number(process.env.PUSH_SERVICE_PORT ?? 8790) });
  console.log(`push-service stand-in listening on ${service.url}`);
  const stop = () => void service.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
