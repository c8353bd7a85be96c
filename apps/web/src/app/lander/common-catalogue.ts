import type { BootData } from '@/lib/boot-data';

/** What a lander's page block says of the common catalogue (apps/server/src/plugins/lander-pages.ts). */
export interface CommonCatalogueInBlock {
  /** The catalogue itself, when the page has no boot data. */
  common?: Record<string, unknown>;
  /** The build's file of the catalogue, which the server names instead of putting it into the page. */
  commonUrl?: string;
}

/**
 * The common catalogue of a lander's page: from the boot data or the page's block when the page carries it,
 * else fetched from the build's file the block names (the server leaves it out of the page: the first paint does
 * not need it, the code taking the page over does, and fetches it beside its own files).
 */
export async function commonCatalogue(boot: BootData | null, block: CommonCatalogueInBlock): Promise<Record<string, unknown>> {
  const carried = boot?.messages ?? block.common;
  if (carried) return carried;
  if (!block.commonUrl) return {};
  const response = await fetch(block.commonUrl);
  if (!response.ok) throw new Error(`${block.commonUrl}: HTTP ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}
