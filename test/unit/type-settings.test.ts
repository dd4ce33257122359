import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { typeSettings } from '../../api/jobs/type-settings';
import { JOB_TYPE_DEFINITIONS, jobTypeNamed } from '../../common/job-types/registry';

const jobs = { confidenceThreshold: 0.8, maxExtractionTries: 4 };

describe('the settings a job starts with beyond every job’s come from its type’s definition', () => {
  test('when an invoice starts, then its input carries the confidence threshold and the extraction tries', () => {
    const invoice = jobTypeNamed('invoice');
    assert.ok(invoice);
    assert.deepEqual(typeSettings(invoice, jobs), { confidenceThreshold: 0.8, maxExtractionTries: 4 });
  });

  test('when a type that names no settings starts, then its input carries none of the invoice’s', () => {
    const others = JOB_TYPE_DEFINITIONS.filter((definition) => definition.name !== 'invoice');
    assert.ok(others.length > 0);
    for (const definition of others) assert.deepEqual(typeSettings(definition, jobs), {}, definition.name);
  });
});
