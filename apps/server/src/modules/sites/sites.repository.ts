import { companies, type Executor, sites } from '@amora/db';
import { eq } from 'drizzle-orm';

type SiteRow = typeof sites.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;
export interface Site extends SiteRow {
  company: CompanyRow;
}

export async function findAllSites(db: Executor): Promise<Site[]> {
  const rows = await db.select().from(sites).innerJoin(companies, eq(sites.companyId, companies.id));
  return rows.map((row) => ({ ...row.sites, company: row.companies }));
}

/** The columns of a site that may change (its id may not). */
export type SiteSettings = Partial<Omit<typeof sites.$inferInsert, 'id'>>;

/** Whether a site with that id was there to change. */
export async function updateSiteRow(db: Executor, siteId: number, values: SiteSettings): Promise<boolean> {
  const rows = await db.update(sites).set(values).where(eq(sites.id, siteId)).returning({ id: sites.id });
  return rows.length > 0;
}
