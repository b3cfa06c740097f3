/* A fixed-size ring buffer of ints (written for docchunk's tests). */
#include <stdlib.h>
#include <string.h>

#define RING_CAPACITY 16

struct ring {
    int items[RING_CAPACITY];
    size_t head;
    size_t count;
};

static size_t ring_index(const struct ring *r, size_t offset)
{
    return (r->head + offset) % RING_CAPACITY;
}

/* Reset the buffer to empty. */
void ring_clear(struct ring *r)
{
    memset(r->items, 0, sizeof(r->items));
    r->head = 0;
    r->count = 0;
}

int ring_push(struct ring *r, int value)
{
    if (r->count == RING_CAPACITY) {
        return -1;
    }
    r->items[ring_index(r, r->count)] = value;
    r->count++;
    return 0;
}

int ring_pop(struct ring *r, int *out)
{
    if (r->count == 0) {
        return -1;
    }
    *out = r->items[r->head];
    r->head = ring_index(r, 1);
    r->count--;
    return 0;
}
