import type { Database } from '@amora/db';
import { findAllSites, type Site } from './sites.repository';

const CACHE_MS = 30_000;

/**
 * Sites are read on every request and change rarely, so each process keeps them for 30 seconds.
 * The host decides the site; an unknown host gets the default site so a fresh install answers on any address.
 */
export class SiteDirectory {
  private byHost = new Map<string, Site>();
  private byId = new Map<number, Site>();
  private fallback: Site | null = null;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** Bumped on every reload, so caches derived from sites know when to drop their entries. */
  generation = 0;

  constructor(private readonly db: Database) {}

  private async refresh(): Promise<void> {
    const all = await findAllSites(this.db);
    const byHost = new Map<string, Site>();
    const byId = new Map<number, Site>();
    for (const site of all) {
      byId.set(site.id, site);
      byHost.set(site.domain.toLowerCase(), site);
      for (const host of site.hosts) byHost.set(host.toLowerCase(), site);
    }
    this.byHost = byHost;
    this.byId = byId;
    this.fallback = all.find((s) => s.isDefault) ?? all[0] ?? null;
    this.loadedAt = Date.now();
    this.generation++;
  }

  private async ensureFresh(): Promise<void> {
    if (Date.now() - this.loadedAt < CACHE_MS) return;
    this.loading ??= this.refresh().finally(() => {
      this.loading = null;
    });
    await this.loading;
  }

  async forHost(host: string | undefined): Promise<Site | null> {
    await this.ensureFresh();
    const name = (host ?? '')
      .toLowerCase()
      .replace(/:\d+$/, '')
      .replace(/^\[|\]$/g, '');
    return this.byHost.get(name) ?? this.byHost.get(name.replace(/^www\./, '')) ?? this.fallback;
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
  }
}
