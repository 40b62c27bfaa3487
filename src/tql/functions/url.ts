import { definer } from "./define.js";
import type { FunctionDef } from "./function-def.js";

const fn = definer("url");

export const URL_FUNCTIONS: readonly FunctionDef[] = [
  fn("protocol", 1, "Scheme of a URL, e.g. 'https'"),
  fn("domain", 1, "Host name of a URL"),
  fn("domainWithoutWWW", 1, "Host name without a leading 'www.'"),
  fn("domainRFC", 1, "domain, following RFC 3986 strictly"),
  fn("domainWithoutWWWRFC", 1, "domainWithoutWWW, following RFC 3986 strictly"),
  fn("topLevelDomain", 1, "Top-level domain, e.g. 'com'"),
  fn("firstSignificantSubdomain", 1, "The registrable name, e.g. 'example' for a.example.co.uk"),
  fn(
    "cutToFirstSignificantSubdomain",
    1,
    "Domain from the first significant subdomain, e.g. 'example.com'",
  ),
  fn("cutToFirstSignificantSubdomainWithWWW", 1, "cutToFirstSignificantSubdomain keeping 'www'"),
  fn("port", [1, 2], "Port of a URL, or the given UInt16 default (0 otherwise)"),
  fn("path", 1, "Path without the query string"),
  fn("pathFull", 1, "Path with the query string and fragment"),
  fn("queryString", 1, "Query string without the '?'"),
  fn("fragment", 1, "Fragment without the '#'"),
  fn("queryStringAndFragment", 1, "Query string and fragment"),
  fn("netloc", 1, "user:password@host:port part"),
  fn("extractURLParameter", 2, "Value of a query parameter, '' if absent: (url, name)"),
  fn("extractURLParameters", 1, "Array of the name=value query parameters"),
  fn("extractURLParameterNames", 1, "Array of the query parameter names"),
  fn("URLHierarchy", 1, "Array of the URL cut at each path step"),
  fn("URLPathHierarchy", 1, "URLHierarchy of the path only"),
  fn("cutWWW", 1, "The URL without a leading 'www.' in its host"),
  fn("cutQueryString", 1, "The URL without its query string"),
  fn("cutFragment", 1, "The URL without its fragment"),
  fn("cutQueryStringAndFragment", 1, "The URL without query string and fragment"),
  fn("cutURLParameter", 2, "The URL without a query parameter: (url, name)"),
  fn("decodeURLComponent", 1, "Decodes %XX escapes"),
  fn("encodeURLComponent", 1, "Escapes with %XX"),
  fn("decodeURLFormComponent", 1, "Decodes form encoding ('+' is a space)"),
  fn("encodeURLFormComponent", 1, "Encodes as a form value (space becomes '+')"),
];
