// Retention policies (an extension on /v1 and /v2; docs/api.md, "Retention"): server credentials only.
import { CONTRACT } from '../schemas/operations/index.js';
import {
  getRetention,
  RETENTION_COUNTED,
  RETENTION_RAN,
  RETENTION_READ,
  RETENTION_SET,
  type RetentionRunAnswer,
  runRetention,
  setRetention,
} from '../services/retention.js';
import { operation } from './operation.js';

export const retention = [
  operation(CONTRACT.retentionGet, { run: getRetention, answer: RETENTION_READ }),
  operation(CONTRACT.retentionSet, { run: setRetention, answer: RETENTION_SET }),
  operation(CONTRACT.retentionRun, {
    run: runRetention,
    answer: (out: RetentionRunAnswer) => ({
      result: { status: 'success', message: out.dryRun ? RETENTION_COUNTED : RETENTION_RAN, data: out },
    }),
  }),
];
