import sharp from 'sharp';

/**
 * The pictures demo members send each other in the demo chats, drawn here as SVG (simple shapes, nothing copied or
 * downloaded) and turned into JPEG files, which then go through the chat's photo pipeline as an upload would.
 * They match what the demo conversations talk about: the dunes at sunrise, a lazy cat called Pepper.
 */
export type ChatPicture = 'dunes' | 'cat';

/** The dunes by the sea at sunrise, with the grass on their ridges and two gulls. */
function dunesSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
<defs>
  <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#7d8fc4"/><stop offset="0.45" stop-color="#f4a27c"/><stop offset="1" stop-color="#fde3c3"/>
  </linearGradient>
  <radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">
    <stop offset="0" stop-color="#fff6d6" stop-opacity="0.95"/><stop offset="1" stop-color="#fff6d6" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#e9b394"/><stop offset="1" stop-color="#6f9fb4"/>
  </linearGradient>
</defs>
<rect width="800" height="600" fill="url(#sky)"/>
<circle cx="540" cy="330" r="150" fill="url(#glow)"/>
<circle cx="540" cy="330" r="52" fill="#fff3cf"/>
<rect y="330" width="800" height="90" fill="url(#sea)"/>
<path d="M380 345h320M430 362h220M470 380h150" stroke="#fff3cf" stroke-width="4" stroke-linecap="round" opacity="0.7"/>
<path d="M0 400C120 330 230 330 340 390S560 440 800 360V600H0Z" fill="#e8c08a"/>
<path d="M0 470C160 410 300 420 420 470S640 520 800 450V600H0Z" fill="#dcab70"/>
<path d="M0 540C180 500 340 505 500 545S700 580 800 560V600H0Z" fill="#c8935a"/>
<g stroke="#7c8c47" stroke-width="3" stroke-linecap="round" fill="none">
  <path d="M90 370l-8-34M98 368l4-38M106 366l14-30M300 372l-6-30M308 374l6-32"/>
  <path d="M620 470l-10-40M630 468l2-44M640 468l14-36M652 470l22-28"/>
  <path d="M150 452l-6-30M160 450l6-32M170 450l16-26"/>
</g>
<g stroke="#4b4f6b" stroke-width="3" stroke-linecap="round" fill="none">
  <path d="M200 170q12-12 24 0q12-12 24 0"/><path d="M262 140q9-9 18 0q9-9 18 0"/>
</g>
</svg>`;
}

/** A grey tabby asleep on a cushion, her tail around her paws. */
function catSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
<rect width="800" height="600" fill="#f2e4d3"/>
<rect y="430" width="800" height="170" fill="#b98b63"/>
<rect x="560" y="90" width="150" height="190" rx="8" fill="#e7d2bb"/>
<rect x="575" y="105" width="120" height="160" rx="4" fill="#a9c7d6"/>
<path d="M575 200q40-30 60-10t60-20v95H575Z" fill="#8fb0a0"/>
<ellipse cx="380" cy="430" rx="270" ry="70" fill="#5f8f86"/>
<ellipse cx="380" cy="410" rx="250" ry="60" fill="#77a89d"/>
<path d="M170 400q210-30 420 0" stroke="#5f8f86" stroke-width="6" fill="none" opacity="0.6"/>
<ellipse cx="390" cy="360" rx="160" ry="78" fill="#8c8f98"/>
<path d="M260 330q40-20 60 10M300 305q40-20 60 10M350 292q40-18 60 12M410 292q35-15 55 14" stroke="#6b6e78" stroke-width="10" stroke-linecap="round" fill="none"/>
<path d="M530 380q80 10 60 55q-20 30-120 22" stroke="#8c8f98" stroke-width="30" stroke-linecap="round" fill="none"/>
<path d="M560 392q50 12 36 40" stroke="#6b6e78" stroke-width="9" stroke-linecap="round" fill="none"/>
<circle cx="250" cy="365" r="62" fill="#9a9da6"/>
<path d="M205 325l-8-62 50 34Z" fill="#9a9da6"/><path d="M282 312l28-54 14 62Z" fill="#9a9da6"/>
<path d="M212 318l-4-38 28 22Z" fill="#e6a9a9"/><path d="M288 304l16-30 6 34Z" fill="#e6a9a9"/>
<path d="M215 368q14 10 28 0M262 368q14 10 28 0" stroke="#3d3f47" stroke-width="4" stroke-linecap="round" fill="none"/>
<path d="M248 384l6 6 6-6Z" fill="#d98b8b"/>
<path d="M254 392q-6 8-14 6M254 392q6 8 14 6" stroke="#3d3f47" stroke-width="3" stroke-linecap="round" fill="none"/>
<path d="M200 392l-36-6M202 400l-34 6M306 392l36-6M304 400l34 6" stroke="#f4f1ec" stroke-width="2" stroke-linecap="round"/>
<ellipse cx="300" cy="420" rx="40" ry="16" fill="#9a9da6"/>
</svg>`;
}

const SVGS: Record<ChatPicture, () => string> = { dunes: dunesSvg, cat: catSvg };

/** The picture as a member's phone would upload it: a JPEG. */
export function drawChatPicture(picture: ChatPicture): Promise<Buffer> {
  return sharp(Buffer.from(SVGS[picture]())).jpeg({ quality: 85 }).toBuffer();
}
