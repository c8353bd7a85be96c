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

export type Company = CompanyRow;
/** The columns of a company that may change (its id may not). */
export type CompanySettings = Partial<Omit<typeof companies.$inferInsert, 'id'>>;

export async function findAllCompanies(db: Executor): Promise<Company[]> {
  return db.select().from(companies).orderBy(companies.id);
}

export async function findCompany(db: Executor, id: number): Promise<Company | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  return row;
}

/** The company after the change, or undefined when there is none with that id. */
export async function updateCompanyRow(db: Executor, id: number, values: CompanySettings): Promise<Company | undefined> {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
  return row;
}

/** The site with that id as it is stored now (not as a process keeps it). */
export async function findSiteRow(db: Executor, id: number): Promise<Site | undefined> {
  const [row] = await db.select().from(sites).innerJoin(companies, eq(sites.companyId, companies.id)).where(eq(sites.id, id));
  return row ? { ...row.sites, company: row.companies } : undefined;
}

/** Another site's id on that domain or host, if any. */
export async function siteOnHost(db: Executor, host: string, exceptId: number): Promise<number | undefined> {
  const all = await findAllSites(db);
  return all.find((s) => s.id !== exceptId && [s.domain, ...s.hosts].some((h) => h.toLowerCase() === host))?.id;
}
