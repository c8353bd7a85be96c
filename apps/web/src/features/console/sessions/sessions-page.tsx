export function SessionsPage() {
  return null;
}
export { SessionsPage as Component };
