// The name Folio is published under on npm. The registry's `folio` is another project, so the
// package has a name of its own; the command stays `folio`. The CLI's help and the OpenAPI
// document say it, so a user who meets either knows what to install and import.
export const PACKAGE_NAME = 'folio-api';
export const CLIENT_IMPORT = `${PACKAGE_NAME}/client`;
