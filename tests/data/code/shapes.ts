// Shapes and their areas (written for docchunk's tests).
import { strict as assert } from "node:assert";

export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(private readonly radius: number) {
    assert(radius >= 0);
  }

  area(): number {
    return Math.PI * this.radius * this.radius;
  }
}

export class Rect implements Shape {
  constructor(private readonly w: number, private readonly h: number) {}

  area(): number {
    return this.w * this.h;
  }
}

export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}
