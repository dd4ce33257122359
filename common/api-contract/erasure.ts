import { type Static, Type } from '@sinclair/typebox';
import { closed, count } from './schema-kit';

/** The 200 answer to `DELETE /jobs/{id}`: what was erased, and what of the job's upload stays because others read it. */
export const JobErasure = closed({
  jobId: Type.String(),
  erased: closed({
    objects: count(),
    executions: count(),
  }),
  kept: closed(
    {
      sharedObjects: count(),
    },
    {
      description:
        'Objects named by the upload’s content (the file, its extracted text) that another job or schedule of the tenant still reads: they go with the last of them. The ledger’s posted entry, a record of accounts, always stays.',
    },
  ),
});
export type JobErasure = Static<typeof JobErasure>;
