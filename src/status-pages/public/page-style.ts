// The public page's look, kept apart from the markup so the palette can be checked for
// contrast by a test. `ink` is text on white or on `soft`; white text sits on `solid`; `bar`
// is a graphic (3:1 against white) whose meaning is also given in text.

export type Tone = "operational" | "degraded" | "down" | "maintenance" | "neutral";

type ToneColors = { solid: string; soft: string; ink: string; bar: string };

export const PALETTE: Record<Tone, ToneColors> = {
  operational: { solid: "#15803d", soft: "#dcfce7", ink: "#166534", bar: "#16a34a" },
  degraded: { solid: "#b45309", soft: "#fef3c7", ink: "#92400e", bar: "#d97706" },
  down: { solid: "#b91c1c", soft: "#fee2e2", ink: "#991b1b", bar: "#dc2626" },
  maintenance: { solid: "#1d4ed8", soft: "#dbeafe", ink: "#1e40af", bar: "#2563eb" },
  neutral: { solid: "#4b5563", soft: "#f3f4f6", ink: "#374151", bar: "#d1d5db" },
};

export const BASE = {
  text: "#111827",
  muted: "#4b5563",
  link: "#1d4ed8",
  page: "#f6f7f9",
  surface: "#ffffff",
  border: "#e5e7eb",
  tipBg: "#111827",
  tipMuted: "#d1d5db",
} as const;

const channel = (c: number): number => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

const luminance = (hex: string): number => {
  const n = Number.parseInt(hex.slice(1), 16);
  return (
    0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
  );
};

/** WCAG 2 contrast ratio of two "#rrggbb" colors (1 to 21). */
export const contrastRatio = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

const toneRules = (Object.keys(PALETTE) as Tone[])
  .map((tone) => {
    const c = PALETTE[tone];
    return (
      `.banner.${tone}{background:${c.solid}}` +
      `.pill.${tone}{background:${c.soft};color:${c.ink}}` +
      `.incident.${tone},.maintenance-item.${tone}{border-left-color:${c.bar}}` +
      `.swatch.${tone},.dot.${tone}{background:${c.bar}}`
    );
  })
  .join("\n");

/** The one inline stylesheet of the page (no external resources). */
export const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:${BASE.text};background:${BASE.page};overflow-wrap:anywhere}
a{color:${BASE.link};text-underline-offset:2px}
a:focus-visible,summary:focus-visible,.history>i:focus-visible{outline:3px solid ${BASE.link};outline-offset:2px;border-radius:3px}
.skip{position:absolute;left:1rem;top:-3rem;background:${BASE.surface};padding:.5rem .75rem;border-radius:6px;z-index:20}
.skip:focus{top:1rem}
.wrap{max-width:56rem;margin:0 auto;padding:0 1.25rem}
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
header.site{background:${BASE.surface};border-bottom:1px solid ${BASE.border}}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.75rem 1.5rem;padding-top:1.25rem;padding-bottom:1.25rem}
.brand{display:flex;align-items:center;gap:.875rem;min-width:0;flex:1 1 18rem}
.brand img{height:40px;width:auto;max-width:10rem;object-fit:contain}
h1{font-size:1.5rem;line-height:1.25;margin:0;letter-spacing:-.01em}
.desc{margin:.25rem 0 0;color:${BASE.muted}}
nav ul,.plain{list-style:none;margin:0;padding:0}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem}
main{display:block;padding:1.75rem 0 1rem}
.banner{display:flex;align-items:center;gap:.875rem;color:#fff;border-radius:12px;padding:1.125rem 1.25rem;margin-bottom:2rem;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.banner h2{font-size:1.25rem;margin:0;line-height:1.3}
.banner p{margin:.125rem 0 0;font-size:.875rem}
.banner svg{flex:none;width:2rem;height:2rem}
section{margin-bottom:2.25rem}
.section-title{font-size:1.125rem;margin:0 0 .75rem;letter-spacing:-.005em}
.intro{margin:-.5rem 0 .875rem}
.card{background:${BASE.surface};border:1px solid ${BASE.border};border-radius:12px;box-shadow:0 1px 2px rgba(0,0,0,.04)}
.stack>*+*{margin-top:.75rem}
.incident,.maintenance-item{padding:1rem 1.25rem;border-left:4px solid ${BASE.border}}
.incident h3,.maintenance-item h3{font-size:1.0625rem;margin:0 0 .375rem;line-height:1.35}
.meta{color:${BASE.muted};font-size:.875rem;margin:.25rem 0 0}
.tags{display:flex;flex-wrap:wrap;gap:.375rem;margin:.125rem 0 .25rem}
.pill{display:inline-flex;align-items:center;gap:.375rem;font-size:.8125rem;font-weight:600;line-height:1.5;padding:.0625rem .625rem;border-radius:999px;white-space:nowrap}
.dot{display:inline-block;width:.5rem;height:.5rem;border-radius:50%;flex:none}
.msg{white-space:pre-line;margin:.125rem 0 0}
.updates{list-style:none;margin:.875rem 0 0;padding:0 0 0 1rem;border-left:2px solid ${BASE.border}}
.updates li{position:relative;padding-bottom:.875rem}
.updates li:last-child{padding-bottom:0}
.updates li::before{content:"";position:absolute;left:calc(-1rem - 6px);top:.4rem;width:10px;height:10px;border-radius:50%;background:${BASE.surface};border:2px solid #6b7280}
.updates .phase{font-weight:600}
.updates .meta{margin:0}
details.more{margin-top:.625rem}
details.more summary{cursor:pointer;color:${BASE.link};font-size:.875rem;width:max-content;max-width:100%}
.group+.group,.group+.card,.card+.group{margin-top:1rem}
.group-head{display:flex;justify-content:space-between;align-items:center;gap:.5rem;flex-wrap:wrap;padding:.875rem 1.25rem;border-bottom:1px solid ${BASE.border};background:#fafbfc;border-radius:12px 12px 0 0}
.group-head h3{font-size:1rem;margin:0}
.component{padding:1rem 1.25rem 1.125rem}
.component+.component{border-top:1px solid ${BASE.border}}
.component-head{display:flex;justify-content:space-between;align-items:flex-start;gap:.25rem .75rem;flex-wrap:wrap}
.component-head h3,.component-head h4{font-size:1rem;margin:0;line-height:1.4}
.component .desc{font-size:.875rem;margin:.125rem 0 0}
.history{display:flex;gap:2px;height:2.25rem;margin:.875rem 0 .375rem;padding:0}
.history>i{position:relative;flex:1 1 0;min-width:0;border-radius:2px;background:${PALETTE.operational.bar};outline-offset:1px}
.history>.degraded{background:${PALETTE.degraded.bar}}
.history>.down{background:${PALETTE.down.bar}}
.history>.no_data{background:${PALETTE.neutral.bar}}
.history>.maint::before{content:"";position:absolute;left:0;right:0;bottom:0;height:5px;border-radius:0 0 2px 2px;background:${PALETTE.maintenance.bar}}
.history>i:hover,.history>i:focus{filter:brightness(.82)}
.history b{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.history>i:hover>b,.history>i:focus>b,.history>i:empty:hover::after{position:absolute;width:16rem;height:auto;max-width:calc(100vw - 2rem);overflow:visible;clip:auto;white-space:normal;z-index:10;bottom:calc(100% + 10px);padding:.625rem .75rem;border-radius:8px;background:${BASE.tipBg};color:#fff;font-size:.8125rem;font-style:normal;font-weight:400;line-height:1.45;text-align:left;box-shadow:0 8px 24px rgba(0,0,0,.22);pointer-events:none}
.history>i>b,.history>i::after{left:50%;transform:translateX(-50%)}
.history>:nth-child(-n+30)>b,.history>:nth-child(-n+30)::after{left:0;transform:none}
.history>:nth-last-child(-n+30)>b,.history>:nth-last-child(-n+30)::after{left:auto;right:0;transform:none}
.history-legend{display:flex;align-items:center;gap:.75rem;color:${BASE.muted};font-size:.75rem}
.history-legend .rule{flex:1;height:1px;background:${BASE.border}}
.key{display:flex;flex-wrap:wrap;gap:.375rem 1rem;color:${BASE.muted};font-size:.8125rem;margin:.75rem 0 0}
.key span{display:inline-flex;align-items:center;gap:.375rem}
.swatch{display:inline-block;width:.75rem;height:.75rem;border-radius:2px}
.empty{padding:1rem 1.25rem;color:${BASE.muted};margin:0}
footer.site{border-top:1px solid ${BASE.border};background:${BASE.surface};color:${BASE.muted};font-size:.875rem}
footer.site .wrap{padding-top:1.25rem;padding-bottom:1.5rem}
footer.site p{margin:.25rem 0}
footer.site .powered{font-weight:600;color:${BASE.text}}
footer.site nav{margin:.5rem 0}
${toneRules}
@media (max-width:40rem){
.wrap{padding:0 .875rem}
h1{font-size:1.25rem}
.banner{padding:.875rem 1rem}
.banner h2{font-size:1.0625rem}
.incident,.maintenance-item,.component,.group-head{padding-left:1rem;padding-right:1rem}
.history{gap:1px;height:2rem}
.history>i{border-radius:1px}
}
@media (prefers-reduced-motion:no-preference){.history>i{transition:filter .1s}}
@media print{.history b,.history>i::after{display:none!important}}
`;
