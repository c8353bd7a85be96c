import { BOOT_QUERIES_ID } from '@amora/contracts/core';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { takeBootQueries } from './boot-data';
import { PageRequestProvider } from './page-request';
import { useIsPhone } from './use-media-query';

function pageWith(block: string): Document {
  const doc = document.implementation.createHTMLDocument('');
  doc.body.innerHTML = `<div id="root"></div>${block}`;
  return doc;
}

describe('takeBootQueries', () => {
  it("reads the answers a member's rendered page came with, once, and removes the block", () => {
    const state = { mutations: [], queries: [{ queryKey: ['search', {}], queryHash: '["search",{}]', state: { status: 'success' } }] };
    const doc = pageWith(`<script type="application/json" id="${BOOT_QUERIES_ID}">${JSON.stringify({ phone: true, state })}</script>`);
    expect(takeBootQueries(doc)).toEqual({ phone: true, state });
    expect(doc.getElementById(BOOT_QUERIES_ID)).toBeNull();
    expect(takeBootQueries(doc)).toBeNull();
  });

  it('is null for a page without answers, or answers that do not read', () => {
    expect(takeBootQueries(pageWith(''))).toBeNull();
    expect(takeBootQueries(pageWith(`<script type="application/json" id="${BOOT_QUERIES_ID}">{"queries":</script>`))).toBeNull();
    expect(
      takeBootQueries(pageWith(`<script type="application/json" id="${BOOT_QUERIES_ID}">{"state":{"queries":"x"}}</script>`)),
    ).toBeNull();
  });
});

function Layout() {
  return <p>{useIsPhone() ? 'phone' : 'desktop'}</p>;
}

describe('useIsPhone on the server', () => {
  it("answers the server's guess of the page it renders, and desktop without one", () => {
    const phone = renderToString(
      <PageRequestProvider value={{ phone: true }}>
        <Layout />
      </PageRequestProvider>,
    );
    expect(phone).toContain('phone');
    expect(renderToString(<Layout />)).toContain('desktop');
  });
});
