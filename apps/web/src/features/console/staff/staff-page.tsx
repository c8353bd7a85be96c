export function StaffPage() {
  return null;
}
export { StaffPage as Component };
