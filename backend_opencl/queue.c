/* queue.c: the command queue an operation runs on (the plan's stream, or the context's own), and the one-time check of a plan's stream. */
#include "cl_backend.h"

hb_status hb__cl_check_stream(hb_context *ctx, void *stream)
{
    hb_cl *cl = hb__cl(ctx);
    /* A caller's queue must belong to this context and its device (an
     * adopted cl_context may hold several devices; the programs are built for
     * one), and run in order: a plan's steps follow each other without events.
     * Checked once, when the plan is made, not on every operation. */
    cl_command_queue s = (cl_command_queue)stream;
    cl_context qc = NULL;
    cl_device_id qd = NULL;
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(s, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(s, CL_QUEUE_DEVICE, sizeof qd, &qd, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(s, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "OpenCL: the plan's stream is not a cl_command_queue (%s)",
                         hb__cl_error_name(err));
    if (qc != cl->context)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "OpenCL: the plan's stream (cl_command_queue) belongs to another "
                         "cl_context than the hinesbatch context on %s",
                         ctx->device);
    if (qd != cl->device)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "OpenCL: the plan's stream (cl_command_queue) is a queue of another "
                         "device than the hinesbatch context's, %s",
                         ctx->device);
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return hb__error(HB_ERR_INVALID_ARGUMENT,
                         "OpenCL: the plan's stream (cl_command_queue) is an out-of-order queue; "
                         "hinesbatch needs an in-order one");
    return HB_SUCCESS;
}

hb_status hb__cl_queue(hb_context *ctx, void *stream, cl_command_queue *q)
{
    *q = stream ? (cl_command_queue)stream : hb__cl(ctx)->queue;
    return HB_SUCCESS;
}
