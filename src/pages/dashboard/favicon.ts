// The product's icon: one small SVG, served at /favicon.ico (what browsers ask for on every page without an icon
// link: the API reference, the hosted collection pages) and at /dashboard/favicon.svg (the dashboard's link).
// Kept here rather than in the dashboard's build so it exists even when the dashboard is not built.
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f6feb"/><path d="M18 40h20l-6 6M46 24H26l6-6" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;
