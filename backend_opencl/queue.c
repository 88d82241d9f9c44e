/* queue.c: the command queue an operation runs on: the plan's stream, checked to belong to the context, or the context's own. */
#include "cl_backend.h"

hb_status hb__cl_queue(hb_context *ctx, void *stream, cl_command_queue *q)
{
    hb_cl *cl = hb__cl(ctx);
    if (!stream) {
        *q = cl->queue;
        return HB_SUCCESS;
    }
    /* A caller's queue must belong to this context (and so to its device). */
    cl_context qc = NULL;
    cl_int err = clGetCommandQueueInfo((cl_command_queue)stream, CL_QUEUE_CONTEXT, sizeof qc, &qc,
                                       NULL);
    if (err != CL_SUCCESS)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "OpenCL: the plan's stream is not a cl_command_queue (%s)",
                         hb__cl_error_name(err));
    if (qc != cl->context)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "OpenCL: the plan's stream (cl_command_queue) belongs to another "
                         "cl_context than the hinesbatch context on %s",
                         ctx->device);
    *q = (cl_command_queue)stream;
    return HB_SUCCESS;
}
