const SPACE = /\s/;

/**
 * The loose address check the gateway has always made (`local@domain.tld`: one `@`, no white space,
 * a dot inside the domain), written as string scans. The regular expression it replaces,
 * `/^[^\s@]+@[^\s@]+\.[^\s@]+$/`, takes quadratic time on `a@` followed by many dots and an `@`
 * (2 s for 40,000 characters); these scans are linear.
 */
export const isEmailAddress = (s: string): boolean => {
  const at = s.indexOf('@');
  if (at <= 0 || s.indexOf('@', at + 1) !== -1 || SPACE.test(s)) return false;
  const domain = s.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
};
