import type { Database } from '@amora/db';
import type { Config } from '../../config';
import type { EventBus } from '../../lib/events';
import { type DbContext, dbOf } from '../../lib/transaction';
import {
  type Company,
  type CompanySettings,
  findAllCompanies,
  findAllSites,
  findCompany,
  findSiteRow,
  type Site,
  type SiteSettings,
  siteOnHost,
  updateCompanyRow,
  updateSiteRow,
} from './sites.repository';

/** A site as other modules see it (they reach this module through its service). */
export type { Company, CompanySettings, Site, SiteSettings } from './sites.repository';

const CACHE_MS = 30_000;
const MAX_SEEN_HOSTS = 1_000;

/**
 * A link to a page of the site, for mails: always the site's configured domain, never the Host a request named.
 * https in production; outside production http with the server's port (`LINK_PORT`), since `*.localhost`
 * names reach this machine in browsers.
 */
export function siteUrl(config: Pick<Config, 'isProduction' | 'linkPort'>, site: Pick<Site, 'domain'>, path: string): string {
  const scheme = config.isProduction ? 'https' : 'http';
  const defaultPort = scheme === 'https' ? 443 : 80;
  const port = config.linkPort === null || config.linkPort === defaultPort ? '' : `:${config.linkPort}`;
  return `${scheme}://${site.domain.toLowerCase()}${port}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A site text (a setting written per locale) in the wanted locale, else English. */
export function localizedSetting(text: Record<string, string>, locale: string): string {
  return text[locale] ?? text.en ?? Object.values(text)[0] ?? '';
}

/** What a site looks like outside its pages (the installed app's manifest and icons): its name and colours. */
export interface SiteBranding {
  name: string;
  /** The browser's bar and the installed app's title bar: the theme's primary red. */
  themeColor: string;
  /** The installed app's splash screen behind the icon: the pages' background. */
  backgroundColor: string;
}

/**
 * A site's branding. Every site draws its pages with the one theme of the web app (`$primary` in
 * apps/web/src/styles/theme.scss, the theme-color of apps/web/index.html), so the colours are the theme's; a site
 * with colours of its own would give them here.
 */
export function siteBranding(site: Pick<Site, 'name'>): SiteBranding {
  return { name: site.name, themeColor: '#c8213a', backgroundColor: '#ffffff' };
}

/**
 * Sites are read on every request and change rarely, so each process keeps them, reading them again in the
 * background when they are older than 30 seconds.
 * The host decides the site; outside production an unknown host gets the default site so a fresh install
 * answers on any address, in production it gets none (`strict`).
 */
export class SiteDirectory {
  private byHost = new Map<string, Site>();
  /** Host headers as they arrive (case, port, www.) with the site they name (null: none), so a host is resolved once. */
  private seen = new Map<string, Site | null>();
  private byId = new Map<number, Site>();
  private fallback: Site | null = null;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** How many times the sites were read; every read hands out new site objects, which per-site caches key on. */
  generation = 0;

  /**
   * A change of any site's settings, made in this process or another, is read at the next request: the
   * listeners (apps/server/src/listeners.ts) call `invalidate` on site.settings-changed, and after a lost Redis
   * connection, which may have missed one.
   */
  constructor(private readonly db: Database) {}

  private invalidations = 0;

  private async refresh(): Promise<void> {
    const invalidations = this.invalidations;
    const all = await findAllSites(this.db);
    const byHost = new Map<string, Site>();
    const byId = new Map<number, Site>();
    for (const site of all) {
      byId.set(site.id, site);
      byHost.set(site.domain.toLowerCase(), site);
      for (const host of site.hosts) byHost.set(host.toLowerCase(), site);
    }
    this.byHost = byHost;
    this.seen = new Map();
    this.byId = byId;
    this.fallback = all.find((s) => s.isDefault) ?? all[0] ?? null;
    // A change announced while this read ran may be missing from it: the next call reads again.
    this.loadedAt = invalidations === this.invalidations ? Date.now() : 0;
    this.generation++;
  }

  private reload(): Promise<void> {
    this.loading ??= this.refresh().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * Whether the sites in memory may answer now. Sites older than 30 seconds still answer while a
   * reload runs in the background (stale-while-revalidate); only a first load or an invalidation waits.
   */
  private usable(): boolean {
    if (this.loadedAt === 0) return false;
    if (Date.now() - this.loadedAt >= CACHE_MS) {
      this.reload().catch(() => {
        // the sites in memory keep answering; the next request tries again
      });
    }
    return true;
  }

  private async ensureFresh(): Promise<void> {
    if (!this.usable()) await this.reload();
  }

  /** The site a host names, or null when it names none; `strict` leaves out the default-site fallback. */
  private lookup(host: string | undefined, strict: boolean): Site | null {
    if (!host) return strict ? null : this.fallback;
    let site = this.seen.get(host);
    if (site === undefined) {
      const name = host
        .toLowerCase()
        .replace(/:\d+$/, '')
        .replace(/^\[|\]$/g, '');
      site = this.byHost.get(name) ?? this.byHost.get(name.replace(/^www\./, '')) ?? null;
      // The Host header is the client's to choose: past a sane number of distinct ones, start the memory afresh.
      if (this.seen.size >= MAX_SEEN_HOSTS) this.seen.clear();
      this.seen.set(host, site);
    }
    return site ?? (strict ? null : this.fallback);
  }

  /** The site for a host; an unknown host gets the default site unless `strict`. */
  async forHost(host: string | undefined, strict = false): Promise<Site | null> {
    await this.ensureFresh();
    return this.lookup(host, strict);
  }

  /** The site for a host without waiting, or undefined when the sites must be (re)loaded first. */
  forHostNow(host: string | undefined, strict = false): Site | null | undefined {
    return this.usable() ? this.lookup(host, strict) : undefined;
  }

  /** Whether any site exists (as of the last read). */
  get hasSites(): boolean {
    return this.fallback !== null;
  }

  async byKnownHost(host: string): Promise<Site | null> {
    await this.ensureFresh();
    return this.byHost.get(host.toLowerCase()) ?? null;
  }

  async get(id: number): Promise<Site | null> {
    await this.ensureFresh();
    return this.byId.get(id) ?? null;
  }

  invalidate(): void {
    this.loadedAt = 0;
    this.invalidations++;
  }
}

/**
 * Changes a site's settings. This process reads its sites again at its next request, and every other process
 * does after the `site.settings-changed` event reaches it. False when there is no such site.
 */
export async function changeSiteSettings(
  ctx: { db: Database; events: Pick<EventBus, 'publish'>; sites: SiteDirectory },
  siteId: number,
  values: SiteSettings,
): Promise<boolean> {
  const changed = await updateSiteRow(dbOf(ctx), siteId, values);
  if (!changed) return false;
  ctx.sites.invalidate();
  ctx.events.publish({ type: 'site.settings-changed', siteId });
  return true;
}

/** Every site and every company as stored now (the console's lists; requests use the directory). */
export async function storedSitesAndCompanies(ctx: DbContext): Promise<{ sites: Site[]; companies: Company[] }> {
  const db = dbOf(ctx);
  return { sites: await findAllSites(db), companies: await findAllCompanies(db) };
}

/** A site as stored now, or null. */
export async function storedSite(ctx: DbContext, id: number): Promise<Site | null> {
  return (await findSiteRow(dbOf(ctx), id)) ?? null;
}

/** A company as stored now, or null. */
export async function storedCompany(ctx: DbContext, id: number): Promise<Company | null> {
  return (await findCompany(dbOf(ctx), id)) ?? null;
}

/** The id of another site answering on that host, if any (a domain or host belongs to one site). */
export async function siteAnsweringOn(ctx: DbContext, host: string, exceptSiteId: number): Promise<number | null> {
  return (await siteOnHost(dbOf(ctx), host.toLowerCase(), exceptSiteId)) ?? null;
}

/**
 * Changes a company's data (its sites' footers, legal pages and receipts show it): every process reads the sites
 * of the company again, as for a change of a site's settings. Null when there is no such company.
 */
export async function changeCompany(
  ctx: { db: Database; events: Pick<EventBus, 'publish'>; sites: SiteDirectory },
  companyId: number,
  values: CompanySettings,
): Promise<Company | null> {
  const company = await updateCompanyRow(dbOf(ctx), companyId, values);
  if (!company) return null;
  ctx.sites.invalidate();
  for (const site of await findAllSites(dbOf(ctx))) {
    if (site.companyId === companyId) ctx.events.publish({ type: 'site.settings-changed', siteId: site.id });
  }
  return company;
}
