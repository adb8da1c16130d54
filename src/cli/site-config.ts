// The site's settings are read in one place for the CLI and the LangGraph graph (sites/site-config.ts).
export { profileSite, resolveCliSiteConfig } from '../sites/site-config.js';
