// vanilla-cookieconsent's stylesheets, imported as text by the consent
// chunk (esbuild's text loader, selected by the import attribute).

declare module "vanilla-cookieconsent/dist/css-components/base.css" {
  const css: string;
  export default css;
}

declare module "vanilla-cookieconsent/dist/css-components/consent-modal.css" {
  const css: string;
  export default css;
}

declare module "vanilla-cookieconsent/dist/css-components/preferences-modal.css" {
  const css: string;
  export default css;
}
