// Kept while edit/panel-preview.tsx imports this path; the renderer adapter is ./panel-body.
export { PanelBody, type PanelBodyProps } from "./panel-body";
