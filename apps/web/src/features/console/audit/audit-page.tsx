export function AuditPage() {
  return null;
}
export { AuditPage as Component };
