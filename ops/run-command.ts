/**
 * Runs an operator command's `main` and exits with the code it answers; a thrown error prints its message (no stack:
 * the operator wants the reason) and exits with `failureCode`.
 */
export function runCommand(main: () => Promise<number>, failureCode = 1): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(failureCode);
    },
  );
}
