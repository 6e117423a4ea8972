/** The point at longitude `lon`, latitude `lat` (degrees) on the unit sphere, as x, y, z. */
export function unitVector(lon: number, lat: number): [number, number, number] {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lon * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}
