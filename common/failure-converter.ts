import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Failures' messages and stack traces move into an encoded payload, so the payload codec encrypts them too (an
 * error may quote the document it failed on). Loaded by path: the SDK bundles it into the workflow sandbox as well.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
