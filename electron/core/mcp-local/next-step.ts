import type { CourseNextStep } from '../../common/views/courses';
import type { z } from 'zod';
import type { nextStepSchema } from './output-schemas';
import { schoolLine } from './school-text';

/** A course's next step (db/next-step.ts, as the screens show it) in the tools' flat shape. */
export function nextStepOf(step: CourseNextStep): z.infer<typeof nextStepSchema> {
  const none = { lectureId: null, lectureTitle: null, positionSeconds: null, at: null };
  switch (step.kind) {
    case 'expired':
      return { ...none, kind: step.kind, at: step.endedAt };
    case 'none':
      return { ...none, kind: step.kind };
    case 'completed':
      return {
        ...none,
        kind: step.kind,
        lectureId: step.again?.lectureId ?? null,
        lectureTitle: step.again ? schoolLine(step.again.title) : null,
      };
    case 'resume':
      return {
        ...none,
        kind: step.kind,
        lectureId: step.lecture.lectureId,
        lectureTitle: schoolLine(step.lecture.title),
        positionSeconds: step.positionSeconds,
      };
    case 'locked':
      return {
        ...none,
        kind: step.kind,
        lectureId: step.lecture.lectureId,
        lectureTitle: schoolLine(step.lecture.title),
        at: step.unlockAt,
      };
    case 'next':
    case 'start':
      return {
        ...none,
        kind: step.kind,
        lectureId: step.lecture.lectureId,
        lectureTitle: schoolLine(step.lecture.title),
      };
  }
}
