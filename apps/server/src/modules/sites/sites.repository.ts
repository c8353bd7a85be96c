import { companies, type Executor, sites } from '@amora/db';
import { eq } from 'drizzle-orm';

export type SiteRow = typeof sites.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;
export interface Site extends SiteRow {
  company: CompanyRow;
}

export async function findAllSites(db: Executor): Promise<Site[]> {
  const rows = await db.select().from(sites).innerJoin(companies, eq(sites.companyId, companies.id));
  return rows.map((row) => ({ ...row.sites, company: row.companies }));
}
