import { reportQuerySchema, reportSchema } from '../reports';
import { type EndpointTable, unchecked } from './endpoint';

/** Business reports in the console (admins only; docs/decisions.md, "Business reports"). */
export const consoleReportEndpoints = {
  'GET /api/console/reports': {
    tag: 'console',
    summary: 'Signups, activations, first purchases, revenue per currency, refunds, chargebacks, messages and active members per day',
    query: reportQuerySchema,
    response: reportSchema,
  },
  'GET /api/console/reports.csv': {
    tag: 'console',
    summary: 'The same report as a CSV file, one row per day and currency',
    query: reportQuerySchema,
    response: unchecked('binary', 'text/csv'),
  },
} satisfies EndpointTable;
