import type { GiftId } from '@amora/contracts';
import type { ReactNode } from 'react';

/**
 * The gift pictures: our own drawings, simple shapes on a 64 × 64 grid in the product's warm colours. Decorative
 * (the gift's name is always written beside or under it), so hidden from assistive technology.
 */
const ART: Record<GiftId, ReactNode> = {
  rose: (
    <>
      <path d="M32 34v24" stroke="#3f8f4f" strokeWidth="3" strokeLinecap="round" />
      <path d="M32 48c-6-6-14-5-16-2 5 4 11 5 16 2z" fill="#56a868" />
      <path d="M32 44c6-6 13-6 15-3-5 4-10 5-15 3z" fill="#4c9c5e" />
      <path d="M18 20c0-8 8-13 14-13s14 5 14 13c0 9-6 15-14 15S18 29 18 20z" fill="#e0475f" />
      <path d="M24 18c2-5 6-7 8-7s6 2 8 7c-3-2-5-3-8-3s-5 1-8 3z" fill="#b8304a" />
      <path d="M26 24c2 3 4 4 6 4s4-1 6-4" stroke="#b8304a" strokeWidth="2" fill="none" strokeLinecap="round" />
    </>
  ),
  coffee: (
    <>
      <path
        d="M24 8c-2 3 2 5 0 8M32 6c-2 3 2 5 0 8M40 8c-2 3 2 5 0 8"
        stroke="#c9b6a6"
        strokeWidth="2.5"
        fill="none"
        strokeLinecap="round"
      />
      <path d="M12 24h36v14c0 10-8 16-18 16S12 48 12 38z" fill="#f4ede6" stroke="#8a5a3c" strokeWidth="2.5" />
      <path d="M48 28h3a7 7 0 0 1 0 14h-4" stroke="#8a5a3c" strokeWidth="3" fill="none" />
      <ellipse cx="30" cy="25" rx="17" ry="3.5" fill="#7a4a2c" />
      <path d="M8 56h44" stroke="#d9c7b8" strokeWidth="3" strokeLinecap="round" />
    </>
  ),
  chocolate: (
    <>
      <path d="M6 26h52v24a6 6 0 0 1-6 6H12a6 6 0 0 1-6-6z" fill="#c23b58" />
      <path d="M6 26h52l-4-8H10z" fill="#e0607a" />
      <circle cx="18" cy="36" r="5" fill="#6b3b22" />
      <circle cx="32" cy="36" r="5" fill="#7d4a2e" />
      <circle cx="46" cy="36" r="5" fill="#6b3b22" />
      <circle cx="25" cy="47" r="5" fill="#7d4a2e" />
      <circle cx="39" cy="47" r="5" fill="#6b3b22" />
      <path d="M28 18c-6-8-14-4-10 1 3 3 10 1 10-1zm8 0c6-8 14-4 10 1-3 3-10 1-10-1z" fill="#f3b6c2" />
    </>
  ),
  teddy: (
    <>
      <circle cx="18" cy="14" r="7" fill="#b07a4f" />
      <circle cx="46" cy="14" r="7" fill="#b07a4f" />
      <circle cx="18" cy="14" r="3.5" fill="#e4bf98" />
      <circle cx="46" cy="14" r="3.5" fill="#e4bf98" />
      <ellipse cx="32" cy="46" rx="16" ry="14" fill="#b07a4f" />
      <circle cx="32" cy="24" r="15" fill="#c48a5c" />
      <ellipse cx="32" cy="29" rx="7" ry="5.5" fill="#ecd0b0" />
      <circle cx="26" cy="21" r="2" fill="#3b2a20" />
      <circle cx="38" cy="21" r="2" fill="#3b2a20" />
      <ellipse cx="32" cy="27" rx="2.5" ry="2" fill="#3b2a20" />
      <path d="M32 46c-3-3-8 0-4 4l4 3 4-3c4-4-1-7-4-4z" fill="#e0475f" />
    </>
  ),
  heart: (
    <>
      <path d="M32 56C16 44 6 35 6 23 6 15 12 9 20 9c5 0 9 3 12 7 3-4 7-7 12-7 8 0 14 6 14 14 0 12-10 21-26 33z" fill="#e0475f" />
      <path d="M16 18c2-3 5-4 8-3" stroke="#f7a8b5" strokeWidth="3" fill="none" strokeLinecap="round" />
    </>
  ),
  cake: (
    <>
      <path d="M32 6c-3 4-3 7 0 8 3-1 3-4 0-8z" fill="#f5a623" />
      <rect x="30" y="14" width="4" height="10" rx="1" fill="#8fb8e8" />
      <rect x="12" y="24" width="40" height="14" rx="4" fill="#f7c7d2" />
      <path d="M12 30c4 4 8-2 12 2s8-2 12 2 8-2 12 2 4 0 4 0v-8H12z" fill="#fff4f6" />
      <rect x="8" y="38" width="48" height="16" rx="4" fill="#e98aa0" />
      <path d="M8 44c5 4 9-2 14 2s9-2 14 2 9-2 14 2l6-2v-8H8z" fill="#fff4f6" />
      <path d="M6 56h52" stroke="#d9c7b8" strokeWidth="3" strokeLinecap="round" />
    </>
  ),
  wine: (
    <>
      <path d="M18 8h28c0 14-4 24-14 24S18 22 18 8z" fill="#fbe9ee" stroke="#b8304a" strokeWidth="2" />
      <path d="M19 16h26c-1 9-5 14-13 14s-12-5-13-14z" fill="#9b1d3a" />
      <path d="M32 32v18" stroke="#b8304a" strokeWidth="3" />
      <path d="M22 54h20" stroke="#b8304a" strokeWidth="3.5" strokeLinecap="round" />
    </>
  ),
  sunflower: (
    <>
      <path d="M32 40v20" stroke="#3f8f4f" strokeWidth="3" strokeLinecap="round" />
      <path d="M32 52c-5-5-11-4-13-2 4 3 9 4 13 2z" fill="#56a868" />
      {[0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330].map((a) => (
        <ellipse key={a} cx="32" cy="10" rx="5" ry="9" fill="#f7c531" transform={`rotate(${a} 32 24)`} />
      ))}
      <circle cx="32" cy="24" r="9" fill="#7a4a2c" />
      <circle cx="29" cy="22" r="1.5" fill="#5a3420" />
      <circle cx="35" cy="25" r="1.5" fill="#5a3420" />
      <circle cx="31" cy="28" r="1.5" fill="#5a3420" />
    </>
  ),
  star: (
    <>
      <path
        d="M32 5l8 17 18 2-13 12 4 18-17-9-17 9 4-18L6 24l18-2z"
        fill="#f7c531"
        stroke="#e0a313"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d="M24 34c3 3 13 3 16 0" stroke="#a86d0c" strokeWidth="2.5" fill="none" strokeLinecap="round" />
      <circle cx="26" cy="27" r="2" fill="#a86d0c" />
      <circle cx="38" cy="27" r="2" fill="#a86d0c" />
    </>
  ),
  icecream: (
    <>
      <path d="M20 30h24L32 60z" fill="#e8b873" stroke="#c98f45" strokeWidth="2" strokeLinejoin="round" />
      <path d="M24 36l14 8M22 31l16 9M40 36l-14 8" stroke="#c98f45" strokeWidth="1.5" />
      <circle cx="25" cy="24" r="9" fill="#f7c7d2" />
      <circle cx="39" cy="24" r="9" fill="#b9e3c6" />
      <circle cx="32" cy="14" r="9" fill="#fff1d6" />
      <circle cx="32" cy="5" r="3" fill="#e0475f" />
    </>
  ),
  balloon: (
    <>
      <path d="M32 44c4 6-4 10 0 18" stroke="#8a8a8a" strokeWidth="1.5" fill="none" />
      <path d="M32 44C20 44 12 33 12 22 12 12 21 4 32 4s20 8 20 18c0 11-8 22-20 22z" fill="#e0475f" />
      <path d="M29 44h6l-3 4z" fill="#b8304a" />
      <path d="M20 16c2-4 6-6 10-6" stroke="#f7a8b5" strokeWidth="3" fill="none" strokeLinecap="round" />
    </>
  ),
  pizza: (
    <>
      <path d="M8 12c16-6 32-6 48 0L32 60z" fill="#f7c96b" stroke="#d99a3a" strokeWidth="2" strokeLinejoin="round" />
      <path d="M8 12c16-6 32-6 48 0l-3 6c-14-5-28-5-42 0z" fill="#d99a3a" />
      <circle cx="24" cy="24" r="4" fill="#d5493c" />
      <circle cx="38" cy="26" r="4" fill="#d5493c" />
      <circle cx="31" cy="38" r="4" fill="#d5493c" />
      <circle cx="31" cy="23" r="1.6" fill="#4c9c5e" />
      <circle cx="27" cy="33" r="1.6" fill="#4c9c5e" />
      <circle cx="36" cy="34" r="1.6" fill="#4c9c5e" />
    </>
  ),
};

export function GiftArt({ gift, size = 64 }: { gift: GiftId; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" data-gift={gift} className="gift-art">
      {ART[gift]}
    </svg>
  );
}
