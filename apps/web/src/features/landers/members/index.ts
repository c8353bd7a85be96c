import type { ComponentType } from 'react';
import type { MemberLandingLayout, MemberLandingProps } from './member-landing-types';

/**
 * The member landings' layouts, one lazy import each, as the landers' designs (../designs/index.ts): the server
 * links a layout's chunk and styles from the build's manifest by its file (src/features/landers/members/<layout>.tsx).
 * They run in the landers' own small page: React and i18next only.
 */
type Layout = () => Promise<ComponentType<MemberLandingProps>>;

export const MEMBER_LANDING_LAYOUTS: Record<MemberLandingLayout, Layout> = {
  landing: () => import('./landing').then((m) => m.MemberLanding),
  landing2: () => import('./landing2').then((m) => m.MemberLanding2),
  landing3: () => import('./landing3').then((m) => m.MemberLanding3),
};
