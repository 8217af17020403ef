<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AlibabaText</name>
    <message>
        <source>this instance type</source>
        <translation>该实例规格</translation>
    </message>
    <message>
        <source>this zone</source>
        <translation>该可用区</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>Alibaba Cloud has no %1 in stock in %2 right now: try the next zone, or later</source>
        <translation>阿里云 %2 目前没有 %1 的库存：换下一个可用区试试，或稍后再试</translation>
    </message>
    <message>
        <source>Alibaba Cloud does not sell %1 in %2 (or not to this account): choose another region or type</source>
        <translation>阿里云在 %2 不售卖 %1（或不对本账号开放）：请换一个地域或实例规格</translation>
    </message>
    <message>
        <source>the launch would exceed the account&apos;s quota for %1 in %2: see and raise it in the Quota Center (https://quotas.console.aliyun.com) or in the ECS console under &quot;Privileges &amp; Quotas&quot;</source>
        <translation>本次创建会超出账号在 %2 的 %1 配额：请在配额中心（https://quotas.console.aliyun.com）或 ECS 控制台的“权益与配额”中查看并申请提升</translation>
    </message>
    <message>
        <source>Alibaba Cloud sells ECS instances in China only to accounts with real-name verification: complete it in the console (Account Center -&gt; Real-name Verification) and try again</source>
        <translation>阿里云中国站只向完成实名认证的账号售卖 ECS 实例：请在控制台（账号中心 -&gt; 实名认证）完成认证后重试</translation>
    </message>
    <message>
        <source>the account&apos;s balance or payment method does not allow this purchase (overdue, not enough balance, or no payment method): top up or add a payment method in the console (Expenses -&gt; Top up); pay-as-you-go instances may also need a positive balance</source>
        <translation>账号余额或支付方式不允许本次购买（已欠费、余额不足或没有支付方式）：请在控制台（费用 -&gt; 充值）充值或添加支付方式；按量付费实例也可能要求账户余额为正</translation>
    </message>
    <message>
        <source>the spot price limit is below the current market price of %1: raise the limit, or launch without one (pay the market price)</source>
        <translation>竞价上限低于 %1 当前的市场价：请调高上限，或不设上限（按市场价付费）</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the spot request for %1: check the spot settings, or launch pay-as-you-go</source>
        <translation>阿里云拒绝了 %1 的竞价实例请求：请检查竞价设置，或改用按量付费</translation>
    </message>
    <message>
        <source>the AccessKey works but may not call %1: grant that action to its RAM user or role, or attach the system policy %2 (RAM console, https://ram.console.aliyun.com)</source>
        <translation>这个 AccessKey 有效，但无权调用 %1：请给它所属的 RAM 用户或角色授予该操作，或添加系统策略 %2（RAM 控制台，https://ram.console.aliyun.com）</translation>
    </message>
    <message>
        <source>Alibaba Cloud did not accept the AccessKey ID / Secret: check that the key exists, is enabled and was pasted without spaces (RAM console -&gt; AccessKeys)</source>
        <translation>阿里云不接受该 AccessKey ID / Secret：请确认密钥存在、已启用，且粘贴时没有多余空格（RAM 控制台 -&gt; AccessKey 管理）</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the request&apos;s time: this computer&apos;s clock is off; set it right (NTP) and try again</source>
        <translation>阿里云拒绝了请求的时间：本机时钟不准，请校准（NTP）后重试</translation>
    </message>
    <message>
        <source>Alibaba Cloud is limiting the request rate of %1: wait a little and try again</source>
        <translation>阿里云正在限制 %1 的调用频率：请稍等片刻再试</translation>
    </message>
    <message>
        <source>Alibaba Cloud does not know the resource %1 names</source>
        <translation>阿里云找不到 %1 所指的资源</translation>
    </message>
    <message>
        <source>Alibaba Cloud failed on its side while handling %1: it may or may not have been done; check the console before trying again</source>
        <translation>阿里云处理 %1 时在服务端出错：操作可能已执行也可能没有，请先到控制台确认再重试</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused %1</source>
        <translation>阿里云拒绝了 %1</translation>
    </message>
    <message>
        <source>Alibaba Cloud&apos;s answer to %1 lists an instance without InstanceId</source>
        <translation>阿里云对 %1 的返回列出了一个没有 InstanceId 的实例</translation>
    </message>
    <message>
        <source>Alibaba Cloud&apos;s answer to %1 has no instance id</source>
        <translation>阿里云对 %1 的返回没有实例 ID</translation>
    </message>
    <message>
        <source>%1 answered without a price for the instance</source>
        <translation>%1 的返回中没有实例的价格</translation>
    </message>
    <message>
        <source>a launch needs a client token (idempotency)</source>
        <translation>创建实例需要一个客户端令牌（用于幂等）</translation>
    </message>
    <message>
        <source>the client token must be at most 64 ASCII characters (ECS&apos;s ClientToken rule)</source>
        <translation>客户端令牌最多 64 个 ASCII 字符（ECS 的 ClientToken 规则）</translation>
    </message>
    <message>
        <source>a subscription launch needs the number of months</source>
        <translation>包年包月实例需要指定购买月数</translation>
    </message>
    <message>
        <source>the cloud-init script is %1 bytes; ECS accepts at most 32768 (32 KB) before encoding: shorten it</source>
        <translation>cloud-init 脚本有 %1 字节；ECS 最多接受编码前 32768 字节（32 KB）：请缩短</translation>
    </message>
    <message>
        <source>the scheduled terminate time must be at least 30 minutes ahead (ECS&apos;s AutoReleaseTime rule)</source>
        <translation>定时终止时间必须至少在 30 分钟之后（ECS 的 AutoReleaseTime 规则）</translation>
    </message>
    <message>
        <source>Alibaba Cloud answered HTTP %1 to %2</source>
        <translation>阿里云对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>没有配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>Alibaba Cloud lists no public image with the GPU driver for %1 in %2: give an image id (--image; a custom or marketplace image with the NVIDIA driver installed)</source>
        <translation>阿里云在 %2 没有适用于 %1 且带 GPU 驱动的公共镜像：请指定镜像 ID（--image；使用已装好 NVIDIA 驱动的自定义镜像或云市场镜像）</translation>
    </message>
    <message>
        <source>no zone of %1 has %2 in stock now (%3): try another region or later</source>
        <translation>%1 目前没有哪个可用区有 %2 的库存（%3）：请换个地域或稍后再试</translation>
    </message>
    <message>
        <source>Alibaba Cloud does not list this instance (released, or never launched)</source>
        <translation>阿里云查不到这个实例（已释放，或从未创建）</translation>
    </message>
    <message>
        <source>the VPC %1 (%2) has no free /24 left for a new vSwitch: free one, or create a vSwitch in this zone yourself</source>
        <translation>专有网络 %1（%2）已没有空闲的 /24 网段可建新的交换机：请释放一个，或自己在该可用区创建交换机</translation>
    </message>
    <message>
        <source>%1 (%2) did not become available in time: try the launch again in a minute</source>
        <translation>%1（%2）未能及时变为可用：请过一分钟再重新创建</translation>
    </message>
    <message>
        <source>%1 is a subscription instance and cannot be released before its period ends: it keeps running (and is paid for) until %2. To end it early, unsubscribe it in the console (Expenses -&gt; Unsubscribe; any refund follows Alibaba Cloud&apos;s rules), or stop it</source>
        <translation>%1 是包年包月实例，到期前不能释放：它会一直运行（并计费）到 %2。如需提前结束，请在控制台退订（费用中心 -&gt; 退订管理；能否退款按阿里云的规则），或将其停机</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1; RequestId %2</source>
        <translation>%1；RequestId %2</translation>
    </message>
    <message>
        <source>%1 (Alibaba Cloud: %2)</source>
        <translation>%1（阿里云：%2）</translation>
    </message>
    <message>
        <source>found VPC %1 (%2)</source>
        <translation>找到专有网络 %1（%2）</translation>
    </message>
    <message>
        <source>using the account&apos;s default VPC %1</source>
        <translation>使用账号的默认专有网络 %1</translation>
    </message>
    <message>
        <source>the account has no VPC here: would create VPC %1 (%2)</source>
        <translation>账号在此地域没有专有网络：将创建专有网络 %1（%2）</translation>
    </message>
    <message>
        <source>the account had no VPC here: created VPC %1 (%2, %3)</source>
        <translation>账号在此地域没有专有网络：已创建专有网络 %1（%2，%3）</translation>
    </message>
    <message>
        <source>found vSwitch %1 in %2</source>
        <translation>找到交换机 %1，位于 %2</translation>
    </message>
    <message>
        <source>would create a vSwitch in %1</source>
        <translation>将在 %1 创建交换机</translation>
    </message>
    <message>
        <source>created vSwitch %1 in %2 (%3)</source>
        <translation>已在 %2 创建交换机 %1（%3）</translation>
    </message>
    <message>
        <source>no scheduled release: ECS&apos;s AutoReleaseTime is for pay-as-you-go instances only, a subscription instance runs until its period ends</source>
        <translation>不设定时释放：ECS 的 AutoReleaseTime 只适用于按量付费实例，包年包月实例会运行到到期为止</translation>
    </message>
</context>
<context>
    <name>AzureMlText</name>
    <message>
        <source>Azure Machine Learning jobs need a workspace: create one in Azure Machine Learning studio (ml.azure.com) or the Azure portal (Create a resource -&gt; Azure Machine Learning), in the region you launch in, then enter it as &quot;&lt;resource group&gt;/&lt;workspace name&gt;&quot; in the field ml_workspace of the Azure credential (gpuplan creds set azure)</source>
        <translation>Azure 机器学习作业需要一个工作区：请在 Azure 机器学习工作室（ml.azure.com）或 Azure 门户（创建资源 -&gt; Azure 机器学习）中，在要启动的地域创建一个工作区，然后以“&lt;资源组&gt;/&lt;工作区名&gt;”的形式填入 Azure 凭据的 ml_workspace 字段（gpuplan creds set azure）</translation>
    </message>
    <message>
        <source>the ml_workspace field &quot;%1&quot; is not &quot;&lt;resource group&gt;/&lt;workspace name&gt;&quot;: correct it with gpuplan creds set azure</source>
        <translation>ml_workspace 字段“%1”不是“&lt;资源组&gt;/&lt;工作区名&gt;”的形式：请用 gpuplan creds set azure 改正</translation>
    </message>
    <message>
        <source>the Azure Machine Learning workspace %1 does not exist in this subscription (or the app cannot see it): check the resource group and name in Azure Machine Learning studio, or create the workspace, then correct ml_workspace with gpuplan creds set azure</source>
        <translation>Azure 机器学习工作区 %1 在此订阅中不存在（或应用无权看到）：请在 Azure 机器学习工作室中核对资源组和名称，或先创建该工作区，再用 gpuplan creds set azure 改正 ml_workspace</translation>
    </message>
    <message>
        <source>the workspace %1 is in %2, but the job was to run in %3: an Azure Machine Learning job runs in its workspace&apos;s region, so choose %2, or set ml_workspace to a workspace in %3</source>
        <translation>工作区 %1 位于 %2，但作业要在 %3 运行：Azure 机器学习作业只能在其工作区所在地域运行，请选择 %2，或把 ml_workspace 设为位于 %3 的工作区</translation>
    </message>
    <message>
        <source>%1 is not an Azure Machine Learning offer: it is &quot;azureml/&lt;VM size&gt;&quot;</source>
        <translation>%1 不是 Azure 机器学习的规格：应为“azureml/&lt;虚拟机规格&gt;”</translation>
    </message>
    <message>
        <source>%1 cannot name an Azure Machine Learning job: letters, digits, - and _ only, a letter or digit first, at most 255 characters</source>
        <translation>%1 不能用作 Azure 机器学习作业名：只能包含字母、数字、- 和 _，须以字母或数字开头，最多 255 个字符</translation>
    </message>
    <message>
        <source>the job has no command to run</source>
        <translation>作业没有要运行的命令</translation>
    </message>
    <message>
        <source>an Azure Machine Learning launch needs a job: a container image and a command</source>
        <translation>Azure 机器学习启动需要一个作业：容器镜像和命令</translation>
    </message>
    <message>
        <source>the tag &quot;%1&quot; cannot be set on the job (empty, or GPU Planner&apos;s own)</source>
        <translation>标签“%1”不能设置在作业上（为空，或是 GPU Planner 自用的标签）</translation>
    </message>
    <message>
        <source>the job&apos;s end time has already passed: choose a later end time</source>
        <translation>作业的结束时间已经过去：请选择更晚的结束时间</translation>
    </message>
    <message>
        <source>Azure Machine Learning answered %1 with the address %2, which is neither https nor a local address: GPU Planner did not follow it</source>
        <translation>Azure 机器学习在 %1 的应答中给出了地址 %2，它既不是 https 也不是本机地址：GPU Planner 未访问它</translation>
    </message>
    <message>
        <source>the workspace %1 names no discovery URL, so its job logs cannot be found: read them in Azure Machine Learning studio</source>
        <translation>工作区 %1 没有发现（discovery）URL，无法找到作业日志：请在 Azure 机器学习工作室中查看</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a position in the job&apos;s log</source>
        <translation>“%1”不是作业日志中的有效位置</translation>
    </message>
    <message>
        <source>this VM size</source>
        <translation>该虚拟机规格</translation>
    </message>
    <message>
        <source>the job&apos;s cluster would exceed the workspace&apos;s low-priority vCPU quota for %1 in %2: in Azure Machine Learning studio open Quota (or the portal&apos;s Usage + quotas, provider Machine Learning) and request more low-priority cores, or run on-demand</source>
        <translation>作业的计算集群会超出工作区在 %2 的 %1 低优先级 vCPU 配额：请在 Azure 机器学习工作室打开“配额”（或门户的“使用情况 + 配额”，提供程序选 Machine Learning）申请更多低优先级核心，或改用按量付费</translation>
    </message>
    <message>
        <source>the job&apos;s cluster would exceed Azure Machine Learning&apos;s vCPU quota of the VM family of %1 in %2 (limit %3, in use %4): in Azure Machine Learning studio open Quota (or the portal&apos;s Usage + quotas, provider Machine Learning) and request more cores of that family in the region</source>
        <translation>作业的计算集群会超出 Azure 机器学习在 %2 对 %1 所属虚拟机系列的 vCPU 配额（上限 %3，已用 %4）：请在 Azure 机器学习工作室打开“配额”（或门户的“使用情况 + 配额”，提供程序选 Machine Learning）申请该地域该系列更多核心</translation>
    </message>
    <message>
        <source>the app may not do %1 in the workspace: give its service principal the role AzureML Data Scientist on the workspace (Access control (IAM) -&gt; Add role assignment)</source>
        <translation>应用无权在工作区中执行 %1：请在工作区上为其服务主体分配 AzureML Data Scientist 角色（访问控制 (IAM) -&gt; 添加角色分配）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (Azure: %2)</source>
        <translation>%1（Azure：%2）</translation>
    </message>
    <message>
        <source>found compute cluster %1 (%2, %3)</source>
        <translation>已找到计算集群 %1（%2，%3）</translation>
    </message>
    <message>
        <source>created compute cluster %1 (%2, %3): 0 to 1 node, scaled down to none 2 minutes after its last job, so it costs nothing idle</source>
        <translation>已创建计算集群 %1（%2，%3）：0 到 1 个节点，最后一个作业结束 2 分钟后缩到零个节点，空闲时不产生费用</translation>
    </message>
    <message>
        <source>found environment %1 of image %2</source>
        <translation>已找到镜像 %2 的环境 %1</translation>
    </message>
    <message>
        <source>created environment %1 of image %2</source>
        <translation>已创建镜像 %2 的环境 %1</translation>
    </message>
    <message>
        <source>job %1 was already submitted (%2): nothing sent again</source>
        <translation>作业 %1 已经提交过（%2）：未重复提交</translation>
    </message>
    <message>
        <source>submitted command job %1 to cluster %2</source>
        <translation>已将命令作业 %1 提交到计算集群 %2</translation>
    </message>
    <message>
        <source>Azure ends the job after %1 seconds (its timeout)</source>
        <translation>Azure 会在 %1 秒后结束该作业（作业超时）</translation>
    </message>
    <message>
        <source>Azure Machine Learning jobs are paid as they run; there is no prepaid job</source>
        <translation>Azure 机器学习作业按运行时长付费，没有包年包月的作业</translation>
    </message>
    <message>
        <source>Azure Machine Learning has no check-only job submission</source>
        <translation>Azure 机器学习没有只校验不提交的作业提交方式</translation>
    </message>
    <message>
        <source>a job has no machine to shut down: it ends when its command exits</source>
        <translation>作业没有可关机的机器：命令退出时作业即结束</translation>
    </message>
    <message>
        <source>a job has no machine to log in to, so no SSH key is imported</source>
        <translation>作业没有可登录的机器，因此不导入 SSH 密钥对</translation>
    </message>
    <message>
        <source>a job has no machine to log in to, so there is no SSH rule</source>
        <translation>作业没有可登录的机器，因此没有 SSH 规则</translation>
    </message>
</context>
<context>
    <name>AzureText</name>
    <message>
        <source>this VM size</source>
        <translation>此 VM 规格</translation>
    </message>
    <message>
        <source>this zone</source>
        <translation>此可用区</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>此地域</translation>
    </message>
    <message>
        <source>Azure has no capacity for %1 in zone %2 right now: GPU Planner tries the next zone; else try later or another region</source>
        <translation>Azure 当前在可用区 %2 没有 %1 的容量：GPU Planner 会尝试下一个可用区；否则请稍后重试或换一个地域</translation>
    </message>
    <message>
        <source>%1 is not available in %2 (zone %3) for this subscription now: GPU Planner tries the next zone; else choose another size or region</source>
        <translation>%1 目前在 %2（可用区 %3）不对此订阅开放：GPU Planner 会尝试下一个可用区；否则请换一个规格或地域</translation>
    </message>
    <message>
        <source>the launch would exceed the subscription&apos;s vCPU quota %1 in %2 (limit %3, in use %4, needed %5 more): in the portal open Subscriptions -&gt; Usage + quotas and request more vCPUs of that family in the region</source>
        <translation>此次启动会超出订阅在 %2 的 vCPU 配额 %1（上限 %3，已用 %4，还需 %5）：在门户中打开 订阅 -&gt; 使用情况 + 配额，为该系列在此地域申请更多 vCPU</translation>
    </message>
    <message>
        <source>the launch would exceed the subscription&apos;s spot vCPU quota in %1 (limit %2, in use %3, needed %4 more): in the portal open Subscriptions -&gt; Usage + quotas and request more &quot;Total Regional Low-priority vCPUs&quot; in the region</source>
        <translation>此次启动会超出订阅在 %1 的竞价实例 vCPU 配额（上限 %2，已用 %3，还需 %4）：在门户中打开 订阅 -&gt; 使用情况 + 配额，在此地域申请更多“Total Regional Low-priority vCPUs”</translation>
    </message>
    <message>
        <source>the subscription is not registered for %1: register it once in the portal (Subscriptions -&gt; Resource providers -&gt; %1 -&gt; Register, or az provider register --namespace %1), wait until it shows Registered, then try again</source>
        <translation>订阅尚未注册 %1：在门户中注册一次（订阅 -&gt; 资源提供程序 -&gt; %1 -&gt; 注册，或执行 az provider register --namespace %1），等状态显示为已注册后再试</translation>
    </message>
    <message>
        <source>the app may not do %1: give its service principal the roles Virtual Machine Contributor and Network Contributor (or Contributor) on the subscription, in the portal under Subscriptions -&gt; Access control (IAM)</source>
        <translation>该应用无权执行 %1：在门户的 订阅 -&gt; 访问控制(IAM) 中，为其服务主体在订阅上分配“虚拟机参与者”和“网络参与者”角色（或“参与者”）</translation>
    </message>
    <message>
        <source>Azure refused the access token: check the app&apos;s tenant_id, client_id and client_secret, and that the secret has not expired</source>
        <translation>Azure 拒绝了访问令牌：请检查应用的 tenant_id、client_id 和 client_secret，并确认密钥未过期</translation>
    </message>
    <message>
        <source>Azure is limiting the request rate of %1: wait %2 seconds and try again</source>
        <translation>Azure 正在限制 %1 的请求频率：请等待 %2 秒后重试</translation>
    </message>
    <message>
        <source>Azure is limiting the request rate of %1: wait a little and try again</source>
        <translation>Azure 正在限制 %1 的请求频率：请稍等后重试</translation>
    </message>
    <message>
        <source>the spot price of %1 is above the most you bid, or the bid is not valid: raise the spot price limit or leave it unset (pay up to the on-demand price)</source>
        <translation>%1 的竞价价格高于您的出价上限，或出价无效：请提高竞价价格上限，或不设上限（最高按按量付费价格计费）</translation>
    </message>
    <message>
        <source>Azure does not sell %1 as a spot VM: choose on-demand or another size</source>
        <translation>Azure 不以竞价实例方式提供 %1：请选择按量付费或其他规格</translation>
    </message>
    <message>
        <source>the subscription cannot create resources (disabled, read-only or not found): check its state in the portal under Subscriptions</source>
        <translation>该订阅无法创建资源（已禁用、只读或不存在）：请在门户的“订阅”中查看其状态</translation>
    </message>
    <message>
        <source>Azure does not know the resource %1 names</source>
        <translation>Azure 找不到 %1 所指的资源</translation>
    </message>
    <message>
        <source>Azure refused %1</source>
        <translation>Azure 拒绝了 %1</translation>
    </message>
    <message>
        <source>Azure&apos;s operation %1 ended %2</source>
        <translation>Azure 操作 %1 以 %2 结束</translation>
    </message>
    <message>
        <source>Azure answered HTTP %1 to %2</source>
        <translation>Azure 对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>Azure&apos;s answer to %1 points to %2, which is not Azure Resource Manager: not followed</source>
        <translation>Azure 对 %1 的响应指向 %2，它不是 Azure 资源管理器：未跟随</translation>
    </message>
    <message>
        <source>Azure&apos;s operation %1 was not done after %2 polls: look at it in the portal; reconciling the instances finds the VM by its tag once it exists</source>
        <translation>Azure 操作 %1 轮询 %2 次后仍未完成：请在门户中查看；实例对账会在虚拟机出现后按其标签找到它</translation>
    </message>
    <message>
        <source>%1 is not an Azure image: give a URN publisher:offer:sku:version or an image&apos;s resource id (/subscriptions/...)</source>
        <translation>%1 不是 Azure 镜像：请提供 URN（publisher:offer:sku:version）或镜像的资源 ID（/subscriptions/...）</translation>
    </message>
    <message>
        <source>Azure offers no version of the image %1 in %2: give an image with the NVIDIA driver (--image publisher:offer:sku:version)</source>
        <translation>Azure 在 %2 没有镜像 %1 的任何版本：请指定带 NVIDIA 驱动的镜像（--image publisher:offer:sku:version）</translation>
    </message>
    <message>
        <source>a launch needs a client token (it names the VM)</source>
        <translation>启动需要客户端令牌（它也是虚拟机的名称）</translation>
    </message>
    <message>
        <source>%1 is not a valid Azure VM name (1-64 letters, digits and hyphens)</source>
        <translation>%1 不是有效的 Azure 虚拟机名称（1-64 个字母、数字和连字符）</translation>
    </message>
    <message>
        <source>an Azure Linux VM needs an SSH public key</source>
        <translation>Azure Linux 虚拟机需要 SSH 公钥</translation>
    </message>
    <message>
        <source>the cloud-init script is %1 bytes; Azure takes at most 65535 bytes of custom data: shorten it</source>
        <translation>cloud-init 脚本为 %1 字节；Azure 的自定义数据最多 65535 字节：请精简脚本</translation>
    </message>
    <message>
        <source>Azure does not take the tag %1: a name has at most 512 characters without &lt; &gt; % &amp; \ ? /, a value at most 256</source>
        <translation>Azure 不接受标签 %1：名称最多 512 个字符且不能包含 &lt; &gt; % &amp; \ ? /，值最多 256 个字符</translation>
    </message>
    <message>
        <source>the app sees no enabled Azure subscription: give it a role on a subscription (or enter subscription_id in the credential)</source>
        <translation>该应用看不到任何已启用的 Azure 订阅：请在某个订阅上为它分配角色（或在凭据中填写 subscription_id）</translation>
    </message>
    <message>
        <source>the app sees several enabled subscriptions (%1): enter the one to use as subscription_id in the credential</source>
        <translation>该应用能看到多个已启用的订阅（%1）：请在凭据中把要使用的订阅填为 subscription_id</translation>
    </message>
    <message>
        <source>Azure does not offer %1 in %2 to this subscription (%3): request access to the size in the region through a support request (quota type: compute-VM), or choose another size or region</source>
        <translation>Azure 在 %2 不向此订阅提供 %1（%3）：请通过支持请求（配额类型：计算-VM）申请在该地域使用此规格，或换一个规格或地域</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (Azure: %2)</source>
        <translation>%1（Azure：%2）</translation>
    </message>
    <message>
        <source>image %1 (newest version %2)</source>
        <translation>镜像 %1（最新版本 %2）</translation>
    </message>
    <message>
        <source>the SSH key goes into the VM for user %1 (Azure imports no key pair)</source>
        <translation>SSH 公钥直接写入虚拟机，用户为 %1（Azure 不导入密钥对）</translation>
    </message>
    <message>
        <source>created resource group %1 in %2 for GPU Planner&apos;s resources</source>
        <translation>已在 %2 为 GPU Planner 的资源创建资源组 %1</translation>
    </message>
    <message>
        <source>found resource group %1</source>
        <translation>已找到资源组 %1</translation>
    </message>
    <message>
        <source>found network security group %1: SSH from %2</source>
        <translation>已找到网络安全组 %1：允许来自 %2 的 SSH</translation>
    </message>
    <message>
        <source>created network security group %1: SSH from %2 only</source>
        <translation>已创建网络安全组 %1：仅允许来自 %2 的 SSH</translation>
    </message>
    <message>
        <source>network security group %1 had lost its SSH rule: added it again for %2</source>
        <translation>网络安全组 %1 丢失了 SSH 规则：已为 %2 重新添加</translation>
    </message>
    <message>
        <source>found virtual network %1</source>
        <translation>已找到虚拟网络 %1</translation>
    </message>
    <message>
        <source>created virtual network %1 (%2)</source>
        <translation>已创建虚拟网络 %1（%2）</translation>
    </message>
    <message>
        <source>the VM size has no availability zones in %1: Azure places the VM in the region</source>
        <translation>该 VM 规格在 %1 没有可用区：由 Azure 在地域内放置虚拟机</translation>
    </message>
    <message>
        <source>VM %1 exists already (a resent launch): not created again</source>
        <translation>虚拟机 %1 已存在（重发的启动请求）：不再重复创建</translation>
    </message>
    <message>
        <source>created VM %1 (with its network interface, public IP and OS disk, all deleted with it)</source>
        <translation>已创建虚拟机 %1（连同其网卡、公网 IP 和系统盘，删除时一并删除）</translation>
    </message>
    <message>
        <source>Azure has no scheduled delete time for a VM: the watchdog inside it and GPU Planner&apos;s reconcile end it</source>
        <translation>Azure 没有虚拟机的定时删除：由实例内的看门狗和 GPU Planner 的对账来结束它</translation>
    </message>
</context>
<context>
    <name>CloudErrors</name>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>GPU Planner launches on %1 only, not yet on %2</source>
        <translation>GPU Planner 目前只能在 %1 上启动实例，尚不支持 %2</translation>
    </message>
    <message>
        <source>%1 cannot launch %2: %3</source>
        <translation>%1 无法以 %2 方式启动：%3</translation>
    </message>
    <message>
        <source>a %1 price is a reservation bought from the provider for a term; GPU Planner launches on demand, spot or monthly</source>
        <translation>%1 价格是向云厂商按期限购买的预留，GPU Planner 只能以按需、竞价或包月方式启动</translation>
    </message>
    <message>
        <source>option %1, %2 %3 in %4 (%5)</source>
        <translation>选项 %1：%2 %3，位于 %4（%5）</translation>
    </message>
    <message>
        <source>%1 (off)</source>
        <translation>%1（关闭）</translation>
    </message>
    <message>
        <source>not an http(s) URL</source>
        <translation>不是 http(s) URL</translation>
    </message>
    <message>
        <source>an API endpoint must be https (plain http is only allowed on this computer&apos;s loopback address)</source>
        <translation>API 端点必须使用 https（仅本机回环地址允许使用明文 http）</translation>
    </message>
    <message>
        <source>stopped waiting for the instance to run</source>
        <translation>已停止等待实例运行</translation>
    </message>
    <message>
        <source>the provider accepted the launch but does not show the instance after %1 s; it may still start and bill: see `gpuplan instances`</source>
        <translation>云厂商已接受启动请求，但 %1 秒后仍查不到该实例；它可能仍会启动并计费：请查看 `gpuplan instances`</translation>
    </message>
    <message>
        <source>the instance ended up %1 (%2) instead of running</source>
        <translation>实例最终处于 %1（%2）状态，而不是运行中</translation>
    </message>
    <message>
        <source>the instance ended up %1 instead of running</source>
        <translation>实例最终处于 %1 状态，而不是运行中</translation>
    </message>
    <message>
        <source>still %1 after %2 s; it may still start: see `gpuplan instances`</source>
        <translation>%2 秒后仍处于 %1 状态；它可能仍会启动：请查看 `gpuplan instances`</translation>
    </message>
    <message>
        <source>is empty</source>
        <translation>为空</translation>
    </message>
    <message>
        <source>the plan has no ranked options to launch</source>
        <translation>方案中没有可启动的排名选项</translation>
    </message>
    <message>
        <source>the plan ranks %1 options; there is no option %2</source>
        <translation>方案共排出 %1 个选项；没有选项 %2</translation>
    </message>
    <message>
        <source>%1, cannot be launched by GPU Planner yet (%2); choose another --option, or leave it out to be offered the best one that can</source>
        <translation>%1，GPU Planner 暂时无法启动（%2）；请选择其他 --option，或不指定以获得可启动的最佳选项</translation>
    </message>
    <message>
        <source>the plan&apos;s choice, %1, cannot be launched by GPU Planner yet (%2), and none of its %3 options can</source>
        <translation>方案选定的%1，GPU Planner 暂时无法启动（%2），且其 %3 个选项都无法启动</translation>
    </message>
    <message>
        <source>the catalog has no %1 price for it in %2 (add one in your own catalog, or give it with --price)</source>
        <translation>机型与价格目录中没有它在 %2 的 %1 价格（请在自己的目录中添加，或用 --price 指定）</translation>
    </message>
    <message>
        <source>the catalog has no such instance type</source>
        <translation>机型与价格目录中没有该实例类型</translation>
    </message>
    <message>
        <source>a launch needs a provider, an instance type and a region</source>
        <translation>启动需要云厂商、实例类型和地域</translation>
    </message>
    <message>
        <source>a subscription needs its period in months (1 or more)</source>
        <translation>包月需要以月为单位的时长（1 个月或以上）</translation>
    </message>
    <message>
        <source>%1 cannot launch spot instances: %2</source>
        <translation>%1 无法启动竞价实例：%2</translation>
    </message>
    <message>
        <source>%1 has no monthly subscription: %2</source>
        <translation>%1 不提供包月：%2</translation>
    </message>
    <message>
        <source>%1 cannot check a launch without starting it: %2</source>
        <translation>%1 无法在不启动实例的情况下检查启动请求：%2</translation>
    </message>
    <message>
        <source>terminating at the budget needs a budget</source>
        <translation>达到预算时终止实例需要设置预算</translation>
    </message>
    <message>
        <source>no SSH public key to log in with</source>
        <translation>没有用于登录的 SSH 公钥</translation>
    </message>
    <message>
        <source>a price is more than 0</source>
        <translation>价格必须大于 0</translation>
    </message>
    <message>
        <source>the budget is in %1 but %2 prices in %3, and the catalog has no USD-CNY exchange rate to compare them: the rate comes from %4 in the catalog folder; restore that file</source>
        <translation>预算以 %1 计，而 %2 以 %3 定价，且机型与价格目录中没有用于比较两者的美元兑人民币汇率：汇率来自目录文件夹中的 %4，请恢复该文件</translation>
    </message>
    <message>
        <source>not an OpenSSH public key line (&quot;ssh-ed25519 AAAA... comment&quot;); give the contents of your .pub file</source>
        <translation>不是 OpenSSH 公钥行（&quot;ssh-ed25519 AAAA... comment&quot;）；请提供 .pub 文件的内容</translation>
    </message>
    <message>
        <source>this is a private key; give the public one (.pub)</source>
        <translation>这是私钥；请提供公钥（.pub）</translation>
    </message>
    <message>
        <source>not one OpenSSH public key line (ssh-ed25519 AAAA... or ssh-rsa AAAA...)</source>
        <translation>不是一行 OpenSSH 公钥（ssh-ed25519 AAAA... 或 ssh-rsa AAAA...）</translation>
    </message>
    <message>
        <source>the key&apos;s comment is not UTF-8 text (byte %1 at column %2); change it with `ssh-keygen -c -f &lt;private key&gt;`</source>
        <translation>密钥的注释不是 UTF-8 文本（第 %2 列的字节 %1）；请用 `ssh-keygen -c -f &lt;私钥&gt;` 修改</translation>
    </message>
    <message>
        <source>the key line has control characters in it</source>
        <translation>密钥行中含有控制字符</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>no ~/.ssh/id_ed25519.pub or ~/.ssh/id_rsa.pub; give your public key</source>
        <translation>没有 ~/.ssh/id_ed25519.pub 或 ~/.ssh/id_rsa.pub；请提供你的公钥</translation>
    </message>
    <message>
        <source>cancelled before anything was sent</source>
        <translation>在发送任何请求之前已取消</translation>
    </message>
    <message>
        <source>the launch was not confirmed: nothing was sent</source>
        <translation>启动未获确认：未发送任何请求</translation>
    </message>
    <message>
        <source>launching is not available for this provider (it is for: %1)</source>
        <translation>该云厂商暂不支持启动实例（支持的有：%1）</translation>
    </message>
    <message>
        <source>a launch needs a region and an instance type</source>
        <translation>启动需要地域和实例类型</translation>
    </message>
    <message>
        <source>%1 does not support the %2 feature: %3</source>
        <translation>%1 不支持 %2 功能：%3</translation>
    </message>
    <message>
        <source>stopped before the launch began</source>
        <translation>在启动开始前已停止</translation>
    </message>
    <message>
        <source>answered HTTP %1 when asked for this computer&apos;s address</source>
        <translation>查询本机地址时返回 HTTP %1</translation>
    </message>
    <message>
        <source>did not answer one IP address (got %1 bytes); give the address to open SSH to with --ssh-from</source>
        <translation>没有返回单个 IP 地址（收到 %1 字节）；请用 --ssh-from 指定允许 SSH 访问的地址</translation>
    </message>
    <message>
        <source>not an address with a prefix length, like 203.0.113.7/32</source>
        <translation>不是带前缀长度的地址，例如 203.0.113.7/32</translation>
    </message>
    <message>
        <source>SSH can be opened to an IPv4 address range only here (like 203.0.113.7/32)</source>
        <translation>这里只能向 IPv4 地址段开放 SSH（例如 203.0.113.7/32）</translation>
    </message>
    <message>
        <source>this would open SSH to the whole internet; give your own address (like 203.0.113.7/32)</source>
        <translation>这会向整个互联网开放 SSH；请提供你自己的地址（例如 203.0.113.7/32）</translation>
    </message>
    <message>
        <source>the dead-man switch takes %1 to %2 hours, not %3</source>
        <translation>定时关机（dead-man）的取值范围是 %1 到 %2 小时，而不是 %3</translation>
    </message>
    <message>
        <source>the idle shutdown takes %1 to %2 minutes, not %3</source>
        <translation>空闲关机的取值范围是 %1 到 %2 分钟，而不是 %3</translation>
    </message>
    <message>
        <source>the idle threshold takes %1 to %2 %, not %3</source>
        <translation>空闲阈值的取值范围是 %1 到 %2 %，而不是 %3</translation>
    </message>
    <message>
        <source>the check interval takes %1 to %2 s, not %3</source>
        <translation>检查间隔的取值范围是 %1 到 %2 秒，而不是 %3</translation>
    </message>
    <message>
        <source>the idle grace period takes %1 to %2 minutes, not %3</source>
        <translation>空闲宽限期的取值范围是 %1 到 %2 分钟，而不是 %3</translation>
    </message>
    <message>
        <source>the watchdog script has no default line for %1</source>
        <translation>看门狗脚本中没有 %1 的默认值行</translation>
    </message>
    <message>
        <source>the catalog is not loaded</source>
        <translation>机型与价格目录尚未加载</translation>
    </message>
    <message>
        <source>no plan is open</source>
        <translation>没有打开的方案</translation>
    </message>
    <message>
        <source>%1; store one with `gpuplan creds set %2`</source>
        <translation>%1；请用 `gpuplan creds set %2` 保存凭据</translation>
    </message>
    <message>
        <source>the watchdog script is missing from this installation</source>
        <translation>本安装中缺少看门狗脚本</translation>
    </message>
    <message>
        <source>the extra CA file %1 does not exist or is not a file (--ca-file, or Settings -&gt; Network)</source>
        <translation>额外的 CA 文件 %1 不存在或不是文件（--ca-file，或 设置 -&gt; 网络）</translation>
    </message>
    <message>
        <source>cannot look up this computer&apos;s public address</source>
        <translation>无法查到本机的公网地址</translation>
    </message>
    <message>
        <source>the SSH public key</source>
        <translation>SSH 公钥</translation>
    </message>
    <message>
        <source>the address to open SSH to</source>
        <translation>允许 SSH 连入的地址</translation>
    </message>
    <message>
        <source>a spot price limit is for spot instances only, and cannot be negative</source>
        <translation>竞价上限只用于竞价实例，且不能为负数</translation>
    </message>
    <message>
        <source>%1 has no managed training jobs in GPU Planner (clouds that have them: %2)</source>
        <translation>GPU Planner 不支持在 %1 上提交托管训练作业（支持的云：%2）</translation>
    </message>
    <message>
        <source>%1 is a machine, not a managed job: a command and environment are for a managed offer (&quot;azureml/...&quot;, &quot;vertex/...&quot;)</source>
        <translation>%1 是一台机器，不是托管作业：命令和环境变量只用于托管规格（&quot;azureml/...&quot;、&quot;vertex/...&quot;）</translation>
    </message>
    <message>
        <source>%1 is a managed job: give the command it runs</source>
        <translation>%1 是托管作业：请给出它要运行的命令</translation>
    </message>
    <message>
        <source>%1 is a managed job: give the container image it runs in (for example a PyTorch image of your registry)</source>
        <translation>%1 是托管作业：请给出它运行所用的容器镜像（例如你镜像仓库里的 PyTorch 镜像）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an environment variable name (letters, digits and _, not starting with a digit)</source>
        <translation>&quot;%1&quot; 不是合法的环境变量名（只能用字母、数字和 _，且不能以数字开头）</translation>
    </message>
    <message>
        <source>a managed job needs a timeout (the dead-man, in hours): without one the service may run it for days</source>
        <translation>托管作业必须设置超时（自动关机时间，单位小时）：不设的话服务可能让它连跑好几天</translation>
    </message>
</context>
<context>
    <name>DataErrors</name>
    <message>
        <source>an object</source>
        <translation>一个对象</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>一个数组</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>一个字符串</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>一个整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>一个数字</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation>%1或%2</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>一个布尔值</translation>
    </message>
    <message>
        <source>an unsupported value</source>
        <translation>一个不支持的值</translation>
    </message>
    <message>
        <source>unknown field &apos;%1&apos; (known fields: %2)</source>
        <translation>未知字段“%1”（已知字段：%2）</translation>
    </message>
    <message>
        <source>required field is missing</source>
        <translation>缺少必填字段</translation>
    </message>
    <message>
        <source>required field is null</source>
        <translation>必填字段为 null</translation>
    </message>
    <message>
        <source>must be %1, found %2</source>
        <translation>应为%1，实际为%2</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <source>must be a finite number, found %1</source>
        <translation>应为有限数值，实际为 %1</translation>
    </message>
    <message>
        <source>must be greater than 0, found %1</source>
        <translation>应大于 0，实际为 %1</translation>
    </message>
    <message>
        <source>must be between %1 and %2, found %3</source>
        <translation>应在 %1 到 %2 之间，实际为 %3</translation>
    </message>
    <message>
        <source>must be a non-empty string, found %1</source>
        <translation>应为非空字符串，实际为 %1</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2, found %3</source>
        <translation>应为 %1 到 %2 之间的整数，实际为 %3</translation>
    </message>
    <message>
        <source>must be a calendar date written YYYY-MM-DD, found &quot;%1&quot;</source>
        <translation>应为 YYYY-MM-DD 格式的有效日期，实际为“%1”</translation>
    </message>
    <message>
        <source>unknown value &quot;%1&quot; (known: %2)</source>
        <translation>未知取值“%1”（可选：%2）</translation>
    </message>
    <message>
        <source>file not found</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>cannot open the file for reading (permissions?)</source>
        <translation>无法打开文件读取（权限问题？）</translation>
    </message>
    <message>
        <source>read error</source>
        <translation>读取出错</translation>
    </message>
    <message>
        <source>nested more than %1 levels deep; not one of our files</source>
        <translation>嵌套超过 %1 层；不是本工具的文件</translation>
    </message>
    <message>
        <source>invalid JSON: %1</source>
        <translation>JSON 无效：%1</translation>
    </message>
    <message>
        <source>must be a web address starting with https://, found &quot;%1&quot;</source>
        <translation>应为以 https:// 开头的网址，实际为“%1”</translation>
    </message>
    <message>
        <source>write as_of and retrieved, not date as well</source>
        <translation>请写 as_of 和 retrieved，不要同时写 date</translation>
    </message>
    <message>
        <source>is missing: the date the source states (or its commit date), or null when it states none</source>
        <translation>缺失：应填写来源标明的日期（或其提交日期），来源未标明日期时填 null</translation>
    </message>
    <message>
        <source>is null (the source states no date): say in the note what was looked for</source>
        <translation>为 null（来源未标明日期）：请在 note 中说明查找过什么</translation>
    </message>
    <message>
        <source>is %1, after the day it was retrieved (%2)</source>
        <translation>为 %1，晚于获取日期（%2）</translation>
    </message>
    <message>
        <source>must be &quot;%1&quot;, found &quot;%2&quot;</source>
        <translation>应为“%1”，实际为“%2”</translation>
    </message>
    <message>
        <source>must use only a-z, 0-9 and &apos;-&apos;, found &quot;%1&quot;</source>
        <translation>只能使用 a-z、0-9 和“-”，实际为“%1”</translation>
    </message>
    <message>
        <source>duplicate GPU id &quot;%1&quot;</source>
        <translation>GPU id“%1”重复</translation>
    </message>
    <message>
        <source>%1 prices are quoted per %2, found &quot;%3&quot;</source>
        <translation>%1 价格应按 %2 计价，实际为“%3”</translation>
    </message>
    <message>
        <source>only spot prices have an interruption band</source>
        <translation>只有竞价价格才有中断率区间</translation>
    </message>
    <message>
        <source>unknown GPU id &quot;%1&quot;; it must be one of the ids in gpus.json</source>
        <translation>未知 GPU id“%1”；必须是 gpus.json 中的 id 之一</translation>
    </message>
    <message>
        <source>a second %1 price for region %2</source>
        <translation>地域 %2 出现了第二个 %1 价格</translation>
    </message>
    <message>
        <source>must use only a-z and 0-9, found &quot;%1&quot;</source>
        <translation>只能使用 a-z 和 0-9，实际为“%1”</translation>
    </message>
    <message>
        <source>instance type &quot;%1&quot; is listed twice</source>
        <translation>实例规格“%1”重复列出</translation>
    </message>
    <message>
        <source>cannot list the folder: %1</source>
        <translation>无法列出文件夹内容：%1</translation>
    </message>
    <message>
        <source>no GPU specs in the file</source>
        <translation>文件中没有 GPU 规格</translation>
    </message>
    <message>
        <source>no exchange rate in the file</source>
        <translation>文件中没有汇率</translation>
    </message>
    <message>
        <source>no such file: the USD-CNY exchange rate (schema %1) that prices in USD and CNY are compared with</source>
        <translation>文件不存在：用于比较美元与人民币价格的美元兑人民币汇率（schema %1）</translation>
    </message>
    <message>
        <source>provider &quot;%1&quot; is already defined by another file</source>
        <translation>云厂商“%1”已由另一个文件定义</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a %2 offer of the catalog; left out</source>
        <translation>“%1”不是机型与价格目录中的 %2 机型；已忽略</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>must be &quot;%1&quot; (GPU specs) or &quot;%2&quot; (a provider&apos;s offers), found %3</source>
        <translation>应为“%1”（GPU 规格）或“%2”（云厂商机型），实际为 %3</translation>
    </message>
    <message>
        <source>unknown GPU &apos;%1&apos;; did you mean %2?</source>
        <translation>未知 GPU“%1”；您是否想输入 %2？</translation>
    </message>
    <message>
        <source>unknown GPU &apos;%1&apos;; `gpuplan gpus` lists the known ones</source>
        <translation>未知 GPU“%1”；`gpuplan gpus` 可列出已知 GPU</translation>
    </message>
    <message>
        <source>unknown provider &apos;%1&apos;; known providers: %2</source>
        <translation>未知云厂商“%1”；已知云厂商：%2</translation>
    </message>
    <message>
        <source>no GPU matches &apos;%1&apos;; GPUs with offers: %2</source>
        <translation>没有与“%1”匹配的 GPU；有在售机型的 GPU：%2</translation>
    </message>
    <message>
        <source>no offer is sold in a region matching &apos;%1&apos;; known regions: %2</source>
        <translation>没有机型在与“%1”匹配的地域销售；已知地域：%2</translation>
    </message>
    <message>
        <source>must not exceed &quot;parameters&quot;</source>
        <translation>不能超过“parameters”</translation>
    </message>
    <message>
        <source>per_sample work counts samples, not tokens</source>
        <translation>per_sample 类型的工作量按样本计数，不按 token 计数</translation>
    </message>
    <message>
        <source>transformer work counts tokens: give &quot;tokens&quot; (per epoch) instead</source>
        <translation>transformer 类型的工作量按 token 计数：请改为填写“tokens”（每个 epoch）</translation>
    </message>
    <message>
        <source>unknown unit &quot;%1&quot; (known: %2)</source>
        <translation>未知单位“%1”（可选：%2）</translation>
    </message>
    <message>
        <source>belongs at the top of the file only</source>
        <translation>只能出现在文件顶层</translation>
    </message>
    <message>
        <source>only a workload of kind &quot;measured&quot; has it</source>
        <translation>只有 kind 为“measured”的工作负载才有此字段</translation>
    </message>
    <message>
        <source>a preset cites at least one source</source>
        <translation>预设至少要引用一个来源</translation>
    </message>
    <message>
        <source>unknown preset &apos;%1&apos;; did you mean %2?</source>
        <translation>未知预设“%1”；您是否想输入 %2？</translation>
    </message>
    <message>
        <source>unknown preset &apos;%1&apos;; known presets: %2</source>
        <translation>未知预设“%1”；已知预设：%2</translation>
    </message>
    <message>
        <source>preset &quot;%1&quot; is defined twice</source>
        <translation>预设“%1”重复定义</translation>
    </message>
    <message>
        <source>not a workload</source>
        <translation>不是工作负载</translation>
    </message>
    <message>
        <source>must be greater than 0</source>
        <translation>应大于 0</translation>
    </message>
    <message>
        <source>&apos;%1&apos; counts its work in tokens; use --tokens (per epoch)</source>
        <translation>“%1”按 token 计算工作量；请使用 --tokens（每个 epoch）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; counts its work in samples; use --samples (per epoch)</source>
        <translation>“%1”按样本计算工作量；请使用 --samples（每个 epoch）</translation>
    </message>
    <message>
        <source>text of %1 characters; a plan&apos;s text is at most %2</source>
        <translation>文本长 %1 个字符；方案中的文本最多 %2 个字符</translation>
    </message>
    <message>
        <source>a member name is too long</source>
        <translation>成员名过长</translation>
    </message>
    <message>
        <source>not a GPU Planner plan (no &quot;format&quot;: &quot;gpuplan&quot;)</source>
        <translation>不是 GPU Planner 方案（缺少 &quot;format&quot;: &quot;gpuplan&quot;）</translation>
    </message>
    <message>
        <source>the plan has no valid version number (found %1)</source>
        <translation>方案没有有效的版本号（实际为 %1）</translation>
    </message>
    <message>
        <source>written by a newer GPU Planner (plan version %1); this one reads up to version %2: update it</source>
        <translation>由更新版本的 GPU Planner 写入（方案版本 %1）；当前版本最多只能读取版本 %2：请升级</translation>
    </message>
    <message>
        <source>unknown precision &quot;%1&quot;</source>
        <translation>未知精度“%1”</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a two-letter country code</source>
        <translation>“%1”不是两位字母的国家代码</translation>
    </message>
    <message>
        <source>unknown pricing mode &quot;%1&quot;</source>
        <translation>未知计费方式“%1”</translation>
    </message>
    <message>
        <source>is %1 MB; a plan is at most %2 MB</source>
        <translation>大小为 %1 MB；方案最大为 %2 MB</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a country code: write two letters, e.g. CN, HK, US</source>
        <translation>“%1”不是国家代码：请写两位字母，例如 CN、HK、US</translation>
    </message>
    <message>
        <source>no known country</source>
        <translation>没有已知国家</translation>
    </message>
    <message>
        <source>unknown country &quot;%1&quot;: no region in the catalog is there (its regions are in %2)</source>
        <translation>未知国家“%1”：机型与价格目录中没有位于该国的地域（目录中的地域位于 %2）</translation>
    </message>
    <message>
        <source>must have low &lt;= value &lt;= high</source>
        <translation>必须满足 low &lt;= value &lt;= high</translation>
    </message>
    <message>
        <source>unknown GPU &quot;%1&quot;</source>
        <translation>未知 GPU“%1”</translation>
    </message>
    <message>
        <source>unknown workload &quot;%1&quot;</source>
        <translation>未知工作负载“%1”</translation>
    </message>
    <message>
        <source>no datasheet peak or no FLOPs per unit to compare against</source>
        <translation>没有可供比较的规格书峰值算力或单位 FLOPs</translation>
    </message>
    <message>
        <source>must be samples/s or tokens/s, found &quot;%1&quot;</source>
        <translation>应为 samples/s 或 tokens/s，实际为“%1”</translation>
    </message>
    <message>
        <source>give either &quot;measured&quot; or &quot;mfu&quot;</source>
        <translation>请给出“measured”或“mfu”之一</translation>
    </message>
    <message>
        <source>the id &quot;%1&quot; is used twice</source>
        <translation>id“%1”被重复使用</translation>
    </message>
    <message>
        <source>no calibration source is called &quot;%1&quot; (known: %2)</source>
        <translation>没有名为“%1”的校准来源（已知：%2）</translation>
    </message>
    <message>
        <source>the plan has no ranked option, so there is nothing to recommend (every offer was excluded)</source>
        <translation>方案中没有排序后的候选项，因此无可推荐（所有机型都被排除了）</translation>
    </message>
    <message>
        <source>%1 (a catalog folder holds gpus.json and offers/*.json)</source>
        <translation>%1（机型与价格目录文件夹中应包含 gpus.json 和 offers/*.json）</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 天</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>1 month</source>
        <translation>1 个月</translation>
    </message>
    <message>
        <source>%1 months</source>
        <translation>%1 个月</translation>
    </message>
    <message>
        <source>%1 hundred million</source>
        <translation>%1 亿</translation>
    </message>
    <message>
        <source>%1 ten thousand</source>
        <translation>%1 万</translation>
    </message>
    <message>
        <source>%1 billion</source>
        <translation>%1 十亿</translation>
    </message>
    <message>
        <source>%1 million</source>
        <translation>%1 百万</translation>
    </message>
    <message>
        <source>1 year</source>
        <translation>1 年</translation>
    </message>
    <message>
        <source>%1 years</source>
        <translation>%1 年</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between alternatives but the last two</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <comment>the last two of several alternatives</comment>
        <translation>%1 或 %2</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between items of a list but the last two</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <comment>the last two items of a list</comment>
        <translation>%1 和 %2</translation>
    </message>
</context>
<context>
    <name>GcpText</name>
    <message>
        <source>the project</source>
        <translation>该项目</translation>
    </message>
    <message>
        <source>Compute Engine has no %1 free in %2 right now (the zone&apos;s resources are exhausted): GPU Planner tries the next zone; else try later or another region</source>
        <translation>Compute Engine 目前在 %2 没有空闲的 %1（该可用区资源已耗尽）：GPU Planner 会尝试下一个可用区；否则请稍后再试或换个地域</translation>
    </message>
    <message>
        <source>this machine type</source>
        <translation>该机器类型</translation>
    </message>
    <message>
        <source>this zone</source>
        <translation>该可用区</translation>
    </message>
    <message>
        <source>the launch would exceed the project&apos;s quota %1 (in %2): in the console open IAM &amp; Admin -&gt; Quotas, filter by the metric, select it and request an increase (a new project&apos;s GPU quotas, GPUS_ALL_REGIONS among them, are often 0)</source>
        <translation>此次启动会超出项目的配额 %1（%2）：在控制台打开 IAM 和管理 -&gt; 配额，按该指标筛选，选中后申请提高配额（新项目的 GPU 配额，包括 GPUS_ALL_REGIONS，通常为 0）</translation>
    </message>
    <message>
        <source>for GPUs</source>
        <translation>GPU 配额</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>Compute Engine is limiting the request rate of %1 (the per-minute quota refills each minute): wait a minute and try again</source>
        <translation>Compute Engine 正在对 %1 限流（每分钟的配额每分钟重置）：请等一分钟后重试</translation>
    </message>
    <message>
        <source>the Compute Engine API is not enabled in %1: enable it in the console (APIs &amp; Services -&gt; Library -&gt; Compute Engine API -&gt; Enable, or the link in Google&apos;s message), wait a few minutes, then try again</source>
        <translation>%1 未启用 Compute Engine API：请在控制台启用（API 和服务 -&gt; 库 -&gt; Compute Engine API -&gt; 启用，或打开 Google 消息中的链接），等几分钟后重试</translation>
    </message>
    <message>
        <source>%1 has no VPC network named &quot;default&quot;, which GPU Planner launches in: create it in the console (VPC network -&gt; VPC networks -&gt; Create VPC network, name &quot;default&quot;, automatic subnets)</source>
        <translation>%1 中没有名为“default”的 VPC 网络，而 GPU Planner 在该网络中启动实例：请在控制台创建（VPC 网络 -&gt; VPC 网络 -&gt; 创建 VPC 网络，名称“default”，自动创建子网）</translation>
    </message>
    <message>
        <source>the service account may not do %1 (it lacks the permission %2): grant it the role %3 on %4 in the console (IAM &amp; Admin -&gt; IAM)</source>
        <translation>服务账号无权执行 %1（缺少权限 %2）：请在控制台（IAM 和管理 -&gt; IAM）为其授予 %4 上的角色 %3</translation>
    </message>
    <message>
        <source>Google did not accept the service account&apos;s token: check that the key file is current and its key not deleted (IAM &amp; Admin -&gt; Service accounts -&gt; Keys)</source>
        <translation>Google 不接受该服务账号的令牌：请检查密钥文件是否为最新、其密钥是否已被删除（IAM 和管理 -&gt; 服务账号 -&gt; 密钥）</translation>
    </message>
    <message>
        <source>Compute Engine does not know the resource %1 names</source>
        <translation>Compute Engine 找不到 %1 所指的资源</translation>
    </message>
    <message>
        <source>Compute Engine refused %1</source>
        <translation>Compute Engine 拒绝了 %1</translation>
    </message>
    <message>
        <source>Compute Engine&apos;s operation %1 for %2 failed</source>
        <translation>Compute Engine 针对 %2 的操作 %1 失败</translation>
    </message>
    <message>
        <source>Compute Engine answered HTTP %1 to %2</source>
        <translation>Compute Engine 对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>no Google Cloud project: enter project_id in the credential, or use a service account key whose client_email ends in @&lt;project&gt;.iam.gserviceaccount.com</source>
        <translation>没有 Google Cloud 项目：请在凭据中填写 project_id，或使用 client_email 以 @&lt;project&gt;.iam.gserviceaccount.com 结尾的服务账号密钥</translation>
    </message>
    <message>
        <source>%1 is a Cloud TPU, not a Compute Engine VM: GPU Planner launches VMs only</source>
        <translation>%1 是 Cloud TPU，不是 Compute Engine 虚拟机：GPU Planner 只启动虚拟机</translation>
    </message>
    <message>
        <source>%1 is not a Compute Engine machine type (&quot;a2-highgpu-1g&quot;) or an N1 type with GPUs (&quot;n1-standard-8+1xT4&quot;)</source>
        <translation>%1 不是 Compute Engine 机器类型（“a2-highgpu-1g”），也不是带 GPU 的 N1 类型（“n1-standard-8+1xT4”）</translation>
    </message>
    <message>
        <source>%1 in %2 is not a GPU that attaches to N1 machine types (T4, V100, P100 or P4)</source>
        <translation>%2 中的 %1 不是可挂载到 N1 机器类型的 GPU（T4、V100、P100 或 P4）</translation>
    </message>
    <message>
        <source>Compute Engine Spot VMs take no price limit (there is no bid): launch without one</source>
        <translation>Compute Engine 竞价实例（Spot 虚拟机）不设价格上限（没有出价）：请不设上限启动</translation>
    </message>
    <message>
        <source>a launch needs a client token (idempotency)</source>
        <translation>启动需要客户端令牌（幂等性）</translation>
    </message>
    <message>
        <source>the client token %1 cannot name a Compute Engine instance (lowercase letters, digits and &apos;-&apos;, starting with a letter, at most 63)</source>
        <translation>客户端令牌 %1 不能用作 Compute Engine 实例名（只能含小写字母、数字和“-”，以字母开头，最多 63 个字符）</translation>
    </message>
    <message>
        <source>a Compute Engine instance takes at most 64 labels; this launch has %1</source>
        <translation>一个 Compute Engine 实例最多 64 个标签；此次启动有 %1 个</translation>
    </message>
    <message>
        <source>the instance metadata %1 is %2 bytes; Compute Engine takes at most 256 KB per value</source>
        <translation>实例元数据 %1 有 %2 字节；Compute Engine 每个值最多 256 KB</translation>
    </message>
    <message>
        <source>the instance metadata is %1 bytes in all; Compute Engine takes less than 512 KB</source>
        <translation>实例元数据总共 %1 字节；Compute Engine 要求小于 512 KB</translation>
    </message>
    <message>
        <source>the scheduled delete time (terminationTime) must lie in the future</source>
        <translation>定时删除时间（terminationTime）必须在将来</translation>
    </message>
    <message>
        <source>the SSH public key must be one line</source>
        <translation>SSH 公钥必须是一行</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>none of the Deep Learning VM image families %1 (project %2) is available: give an image (--image: a selfLink, projects/&lt;project&gt;/global/images/&lt;name&gt;, or an image family URL) with the NVIDIA driver</source>
        <translation>Deep Learning VM 镜像系列 %1（项目 %2）都不可用：请指定一个装有 NVIDIA 驱动的镜像（--image：selfLink、projects/&lt;project&gt;/global/images/&lt;name&gt; 或镜像系列 URL）</translation>
    </message>
    <message>
        <source>no zone of %1 offers %2: try another region</source>
        <translation>%1 没有可用区提供 %2：请换个地域</translation>
    </message>
    <message>
        <source>Compute Engine&apos;s operation %1 did not finish in time: look for it in the console (Compute Engine -&gt; Operations); reconciling the instances finds the instance by its label once it exists</source>
        <translation>Compute Engine 的操作 %1 未在时限内完成：请在控制台（Compute Engine -&gt; 操作）中查看；实例创建后，对账会按其标签找到它</translation>
    </message>
    <message>
        <source>an instance named %1 already exists in %2 and is not this launch&apos;s (its gpuplanner-token label differs)</source>
        <translation>%2 中已存在名为 %1 的实例，但不是此次启动的（其 gpuplanner-token 标签不同）</translation>
    </message>
    <message>
        <source>%1 is not a Compute Engine instance id as GPU Planner keeps it (&lt;zone&gt;/&lt;name&gt;)</source>
        <translation>%1 不是 GPU Planner 记录的 Compute Engine 实例 ID 格式（&lt;zone&gt;/&lt;name&gt;）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (Google: %2)</source>
        <translation>%1（Google：%2）</translation>
    </message>
    <message>
        <source>found GPU image %1 (family %2)</source>
        <translation>找到 GPU 镜像 %1（系列 %2）</translation>
    </message>
    <message>
        <source>the SSH key goes into the instance&apos;s metadata (ssh-keys) for the user %1</source>
        <translation>SSH 公钥写入实例元数据（ssh-keys），登录用户为 %1</translation>
    </message>
    <message>
        <source>found firewall rule %1 (SSH from %2)</source>
        <translation>找到防火墙规则 %1（允许来自 %2 的 SSH）</translation>
    </message>
    <message>
        <source>created firewall rule %1 on the network default: SSH from %2 to instances tagged with its name</source>
        <translation>已在 default 网络上创建防火墙规则 %1：允许来自 %2 的 SSH 访问带有同名网络标记的实例</translation>
    </message>
    <message>
        <source>firewall rule %1 had lost its rule for SSH from %2: put it back</source>
        <translation>防火墙规则 %1 丢失了允许来自 %2 的 SSH 规则：已恢复</translation>
    </message>
    <message>
        <source>operation %1 finished (asked %2 times)</source>
        <translation>操作 %1 已完成（查询 %2 次）</translation>
    </message>
    <message>
        <source>Compute Engine deletes the instance at %1 (terminationTime)</source>
        <translation>Compute Engine 将在 %1 删除该实例（terminationTime）</translation>
    </message>
    <message>
        <source>instance %1 in %2 already existed from this launch&apos;s earlier request: it is this launch&apos;s</source>
        <translation>%2 中的实例 %1 是此次启动先前的请求创建的：即此次启动的实例</translation>
    </message>
</context>
<context>
    <name>GuiApplication</name>
    <message>
        <source>GPU Planner</source>
        <translation>GPU Planner 云端算力规划</translation>
    </message>
    <message>
        <source>User interface language: en or zh_CN.</source>
        <translation>界面语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>Catalog folder to use instead of the bundled one.</source>
        <translation>使用指定的目录数据文件夹，替代内置目录。</translation>
    </message>
    <message>
        <source>Write a PNG of each page into this folder, then quit.</source>
        <translation>把每个页面截图为 PNG 保存到该文件夹，然后退出。</translation>
    </message>
    <message>
        <source>Unknown language &quot;%1&quot;; supported: %2</source>
        <translation>不支持的语言“%1”；可选：%2</translation>
    </message>
    <message>
        <source>Log what is done to the terminal; repeat for more (-vv, -vvv). Secrets are never shown. GPUPLAN_LOG chooses per category, e.g. net=trace.</source>
        <translation>在终端记录所做的操作；重复可输出更多（-vv、-vvv）。密钥等机密从不显示。GPUPLAN_LOG 可按类别选择，例如 net=trace。</translation>
    </message>
</context>
<context>
    <name>HuaweiText</name>
    <message>
        <source>this flavor</source>
        <translation>该规格</translation>
    </message>
    <message>
        <source>this zone</source>
        <translation>该可用区</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>Huawei Cloud has no %1 left in %2 right now (sold out): GPU Planner tries the next zone; else try later or another region</source>
        <translation>华为云在 %2 暂时没有 %1 了（已售罄）：GPU Planner 会换下一个可用区试；否则稍后再试或换个地域</translation>
    </message>
    <message>
        <source>Huawei Cloud does not sell %1 in %2 (taken off sale, or not offered there): choose another flavor or region</source>
        <translation>华为云在 %2 不卖 %1（已下线，或该地域不提供）：请换个规格或地域</translation>
    </message>
    <message>
        <source>the launch would exceed the account&apos;s ECS quota (servers, vCPUs or memory) in %1: see the quotas in the console (Resources -&gt; My Quotas) and ask for more there, by the vCPUs and memory of %2</source>
        <translation>这次创建会超出账号在 %1 的 ECS 配额（实例数、vCPU 或内存）：在控制台“资源 &gt; 我的配额”查看并申请扩大，按 %2 的 vCPU 和内存数申请</translation>
    </message>
    <message>
        <source>the account&apos;s elastic IP (EIP) quota in %1 is used up: release an unused EIP, or ask for more under Resources -&gt; My Quotas</source>
        <translation>账号在 %1 的弹性公网IP（EIP）配额已用完：释放不用的 EIP，或在“资源 &gt; 我的配额”申请扩大</translation>
    </message>
    <message>
        <source>Huawei Cloud refused %1 for the account itself (Ecs.0003). Either the account is in arrears or frozen: check the balance in Billing Center and top it up; or the IAM user lacks the permission %2: grant it in IAM (system policy ECS FullAccess)</source>
        <translation>华为云因账号本身拒绝了 %1（Ecs.0003）。可能是账号欠费或被冻结：到费用中心查看余额并充值；也可能是 IAM 用户缺少权限 %2：在 IAM 中授权（系统策略 ECS FullAccess）</translation>
    </message>
    <message>
        <source>the credential&apos;s project_id is not the project of %1 (a project id belongs to one region): clear project_id so GPU Planner looks the project up, or enter %1&apos;s project id (My Credentials -&gt; Projects)</source>
        <translation>凭证中的 project_id 不是 %1 的项目（项目 ID 只属于一个地域）：清空 project_id 让 GPU Planner 自动查询，或填入 %1 的项目 ID（我的凭证 &gt; 项目列表）</translation>
    </message>
    <message>
        <source>the account balance cannot pay for %1 (or an order is still unpaid): top up in Billing Center, pay or cancel pending orders, then try again</source>
        <translation>账户余额不足以支付 %1（或还有未支付的订单）：请到费用中心充值，支付或取消待支付订单后重试</translation>
    </message>
    <message>
        <source>the account has not finished real-name verification, which Huawei Cloud requires before it sells servers: complete it in the console (Account Center -&gt; Real-Name Authentication), then try again</source>
        <translation>账号还没有完成实名认证，华为云要求实名认证后才能购买云服务器：请在控制台（账号中心 &gt; 实名认证）完成后再试</translation>
    </message>
    <message>
        <source>the key works but its IAM user may not do %1: grant it in the IAM console (https://console.huaweicloud.com/iam), e.g. with the system policy %2 for the region&apos;s project</source>
        <translation>密钥可用，但其 IAM 用户无权执行 %1：请在 IAM 控制台（https://console.huaweicloud.com/iam）授权，例如给该地域的项目授予系统策略 %2</translation>
    </message>
    <message>
        <source>Huawei Cloud refused the request&apos;s time (X-Sdk-Date): this computer&apos;s clock is more than 15 minutes off; set it right (NTP) and try again</source>
        <translation>华为云拒绝了请求的时间（X-Sdk-Date）：本机时钟偏差超过 15 分钟，请校准时间（NTP）后重试</translation>
    </message>
    <message>
        <source>Huawei Cloud did not accept the access key: check that the AK/SK pair exists, is enabled and was pasted without spaces (My Credentials -&gt; Access Keys)</source>
        <translation>华为云不接受该访问密钥：请确认 AK/SK 存在、已启用，且粘贴时没有多余空格（我的凭证 &gt; 访问密钥）</translation>
    </message>
    <message>
        <source>Huawei Cloud is limiting the request rate of %1: wait a little and try again</source>
        <translation>华为云正在限制 %1 的请求频率：请稍等后重试</translation>
    </message>
    <message>
        <source>Huawei Cloud does not know the resource %1 names</source>
        <translation>华为云找不到 %1 指定的资源</translation>
    </message>
    <message>
        <source>Huawei Cloud refused %1</source>
        <translation>华为云拒绝了 %1</translation>
    </message>
    <message>
        <source>Huawei Cloud could not create the server (its job failed)</source>
        <translation>华为云未能创建云服务器（任务失败）</translation>
    </message>
    <message>
        <source>%1 answered without a price for the server</source>
        <translation>%1 的应答中没有这台云服务器的价格</translation>
    </message>
    <message>
        <source>Huawei Cloud answered HTTP %1 to %2</source>
        <translation>华为云对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>a launch needs a client token (idempotency)</source>
        <translation>创建实例需要客户端令牌（幂等性）</translation>
    </message>
    <message>
        <source>the client token is longer than 43 characters, the most a Huawei Cloud tag value takes (the server carries it as its gpuplanner-token tag)</source>
        <translation>客户端令牌超过 43 个字符，这是华为云标签值的上限（云服务器以 gpuplanner-token 标签保存它）</translation>
    </message>
    <message>
        <source>Huawei Cloud does not take the tag %1: a key has at most 36 characters, a value at most 43, and neither may contain = * &lt; &gt; \ , | (nor / in a key)</source>
        <translation>华为云不接受标签 %1：键最多 36 个字符，值最多 43 个字符，都不能包含 = * &lt; &gt; \ , |（键也不能包含 /）</translation>
    </message>
    <message>
        <source>a Huawei Cloud server takes at most 10 tags; this launch has %1</source>
        <translation>华为云一台云服务器最多 10 个标签；本次创建有 %1 个</translation>
    </message>
    <message>
        <source>the cloud-init script is %1 bytes; ECS accepts at most 32768 (32 KB) before base64: shorten it</source>
        <translation>cloud-init 脚本有 %1 字节；ECS 最多接受 32768 字节（32 KB，base64 编码前）：请缩短</translation>
    </message>
    <message>
        <source>Huawei Cloud sells yearly/monthly servers for 1 to 9 months or 1 to 3 whole years, not %1 months</source>
        <translation>华为云的包年包月云服务器只能买 1 到 9 个月或整 1 到 3 年，不能买 %1 个月</translation>
    </message>
    <message>
        <source>the scheduled delete time (auto_terminate_time) must be at least half an hour ahead (Huawei Cloud&apos;s rule)</source>
        <translation>定时删除时间（auto_terminate_time）必须在至少半小时之后（华为云的规定）</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>the account has no IAM project named %1: that region is not open to the account, or the key belongs to another account; check the region under My Credentials -&gt; Projects</source>
        <translation>账号下没有名为 %1 的 IAM 项目：该地域未对账号开通，或密钥属于别的账号；请在“我的凭证 &gt; 项目列表”中查看</translation>
    </message>
    <message>
        <source>Huawei Cloud lists no public Linux image with the GPU driver for %1 in %2: give an image id (a private or KooGallery image with the NVIDIA driver installed)</source>
        <translation>华为云在 %2 没有适用于 %1 的带 GPU 驱动的公共 Linux 镜像：请指定镜像 ID（已装好 NVIDIA 驱动的私有镜像或云商店镜像）</translation>
    </message>
    <message>
        <source>no available zone of %1 sells %2 now: try another region or later</source>
        <translation>%1 目前没有可用区在售 %2：请换个地域或稍后再试</translation>
    </message>
    <message>
        <source>VPC %1 (%2) has no free /24 left for a new subnet: delete an unused subnet of it</source>
        <translation>VPC %1（%2）已没有空闲的 /24 网段可建新子网：请删除它下面不用的子网</translation>
    </message>
    <message>
        <source>Huawei Cloud could not create subnet %1 in %2 (its status is ERROR): delete it in the VPC console and try again</source>
        <translation>华为云未能在 %2 创建子网 %1（状态为 ERROR）：请在 VPC 控制台删除它后重试</translation>
    </message>
    <message>
        <source>Huawei Cloud&apos;s job %1 named no server within 5 minutes: look for it in the ECS console; reconciling the instances finds it by its tag once it exists</source>
        <translation>华为云的任务 %1 在 5 分钟内没有给出云服务器：请到 ECS 控制台查看；云服务器建好后，核对实例时会按标签找到它</translation>
    </message>
    <message>
        <source>%1 is a yearly/monthly (prepaid) server, which Huawei Cloud does not delete through the API: it keeps running and is paid until you unsubscribe it in the console (Billing Center -&gt; Unsubscriptions and Returns/Exchanges); any refund follows Huawei Cloud&apos;s rules</source>
        <translation>%1 是包年包月云服务器，华为云不支持通过 API 删除：在控制台退订之前它会一直运行并计费（费用中心 &gt; 退订与退换货）；能否退款、退多少按华为云的规则</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1; request id %2</source>
        <translation>%1；请求 ID %2</translation>
    </message>
    <message>
        <source>%1 (Huawei Cloud: %2)</source>
        <translation>%1（华为云：%2）</translation>
    </message>
    <message>
        <source>found VPC gpuplanner (%1, %2)</source>
        <translation>已找到 VPC gpuplanner（%1，%2）</translation>
    </message>
    <message>
        <source>the project has no VPC named %1: would create it (%2)</source>
        <translation>项目中没有名为 %1 的 VPC：将会创建（%2）</translation>
    </message>
    <message>
        <source>created VPC %1 (%2, %3) for GPU Planner&apos;s servers</source>
        <translation>已为 GPU Planner 的云服务器创建 VPC %1（%2，%3）</translation>
    </message>
    <message>
        <source>found subnet %1 (%2) for %3</source>
        <translation>已找到 %3 的子网 %1（%2）</translation>
    </message>
    <message>
        <source>would create a subnet %1 in %2</source>
        <translation>将会在 %2 创建子网 %1</translation>
    </message>
    <message>
        <source>would create a subnet in %1</source>
        <translation>将会在 %1 创建子网</translation>
    </message>
    <message>
        <source>created subnet %1 (%2) in %3</source>
        <translation>已在 %3 创建子网 %1（%2）</translation>
    </message>
    <message>
        <source>created security group %1 (%2): SSH from %3, all outbound</source>
        <translation>已创建安全组 %1（%2）：允许来自 %3 的 SSH，出方向全部放行</translation>
    </message>
    <message>
        <source>the dry run is checked in the project&apos;s VPC %1 (%2); the launch itself uses its own VPC, created then</source>
        <translation>预检借用项目里已有的 VPC %1（%2）来检查；正式创建时会另建并使用自己的 VPC</translation>
    </message>
    <message>
        <source>Huawei Cloud&apos;s dry run was not asked: it needs the VPC and subnet, which a dry run does not create; the steps above were checked</source>
        <translation>未向华为云发起预检：预检需要 VPC 和子网，而预检不会创建它们；上面的步骤已检查</translation>
    </message>
    <message>
        <source>job %1 named the server after %2 polls (%3)</source>
        <translation>任务 %1 查询 %2 次后给出了云服务器（%3）</translation>
    </message>
    <message>
        <source>order %1 paid from the account balance</source>
        <translation>订单 %1 已从账户余额支付</translation>
    </message>
    <message>
        <source>Huawei Cloud documents the scheduled delete time (auto_terminate_time) as effective only in cn-north-4 and cn-south-1; in %1 check in the ECS console that the server shows its scheduled deletion, or watch it yourself</source>
        <translation>华为云文档说明定时删除时间（auto_terminate_time）仅在华北-北京四（cn-north-4）和华南-广州（cn-south-1）生效；在 %1 请到 ECS 控制台确认这台云服务器显示了定时删除，否则请自行留意</translation>
    </message>
    <message>
        <source>a yearly/monthly server takes no scheduled delete time: it runs until its period ends or it is unsubscribed</source>
        <translation>包年包月云服务器不支持定时删除：它会一直运行到到期或被退订</translation>
    </message>
</context>
<context>
    <name>LambdaText</name>
    <message>
        <source>no region has capacity for it right now: try again later or choose another type</source>
        <translation>目前所有地域都没有它的容量：请稍后再试，或换一个实例类型</translation>
    </message>
    <message>
        <source>it has capacity now in %1: launch there instead</source>
        <translation>它目前在 %1 有容量：请改在那里启动</translation>
    </message>
    <message>
        <source>this instance type</source>
        <translation>该实例类型</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>Lambda has no capacity for %1 in %2 right now</source>
        <translation>Lambda 在 %2 暂时没有 %1 的容量</translation>
    </message>
    <message>
        <source>%1: try another region or later</source>
        <translation>%1：请换个地域或稍后再试</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>the launch would exceed the account&apos;s quota (new accounts may run only a few instances): ask Lambda&apos;s support to raise it, or terminate an instance you no longer need</source>
        <translation>本次启动会超出账号配额（新账号只能运行少量实例）：请联系 Lambda 客服提高配额，或释放不再需要的实例</translation>
    </message>
    <message>
        <source>Lambda did not accept the API key: it is invalid, expired or deleted; create a new one in the Lambda Cloud dashboard (API keys) and enter it again</source>
        <translation>Lambda 不接受该 API 密钥：密钥无效、已过期或已删除；请在 Lambda Cloud 控制台（API keys）新建一个并重新填写</translation>
    </message>
    <message>
        <source>Lambda says the account is inactive: verify its email address and add a valid payment method in the Lambda Cloud dashboard, then try again</source>
        <translation>Lambda 提示账号未激活：请在 Lambda Cloud 控制台验证邮箱并添加有效的付款方式，然后重试</translation>
    </message>
    <message>
        <source>Lambda says the account&apos;s billing address is invalid: correct it in the Lambda Cloud dashboard (Billing), then try again</source>
        <translation>Lambda 提示账号的账单地址无效：请在 Lambda Cloud 控制台（Billing）改正后重试</translation>
    </message>
    <message>
        <source>Lambda refused %1 for this API key: the key or its team may not do it; check the key&apos;s team and role in the Lambda Cloud dashboard</source>
        <translation>Lambda 拒绝该 API 密钥执行 %1：该密钥或其所属团队无此权限；请在 Lambda Cloud 控制台检查密钥所属团队和角色</translation>
    </message>
    <message>
        <source>Lambda is limiting the request rate of %1 (about one request a second, one launch every 12 seconds): wait a little and try again</source>
        <translation>Lambda 正在限制 %1 的请求频率（约每秒一次请求，每 12 秒一次启动）：请稍等后重试</translation>
    </message>
    <message>
        <source>Lambda does not know what %1 names (the instance or key may be gone)</source>
        <translation>Lambda 找不到 %1 指定的资源（实例或密钥可能已不存在）</translation>
    </message>
    <message>
        <source>Lambda answered %1 with a server error (HTTP %2): it may or may not have done it</source>
        <translation>Lambda 对 %1 返回了服务器错误（HTTP %2）：操作可能已执行，也可能没有</translation>
    </message>
    <message>
        <source>Lambda refused the parameters of %1</source>
        <translation>Lambda 拒绝了 %1 的参数</translation>
    </message>
    <message>
        <source>Lambda refused %1</source>
        <translation>Lambda 拒绝了 %1</translation>
    </message>
    <message>
        <source>Lambda answered HTTP %1 to %2</source>
        <translation>Lambda 对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>the launch&apos;s client token &quot;%1&quot; cannot name a Lambda instance: it must start with gpuplan- and have at most 64 characters (the instance&apos;s name is its token)</source>
        <translation>启动的幂等令牌“%1”不能用作 Lambda 实例名：必须以 gpuplan- 开头，且不超过 64 个字符（实例名就是令牌）</translation>
    </message>
    <message>
        <source>the cloud-init script is %1 bytes; Lambda accepts at most 1 MB: shorten it</source>
        <translation>cloud-init 脚本有 %1 字节，Lambda 最多接受 1 MB：请精简脚本</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>Lambda does not offer the instance type %1 now (it is not in its list of instance types): choose another type</source>
        <translation>Lambda 目前不提供实例类型 %1（不在其实例类型列表中）：请换一个类型</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (Lambda: %2)</source>
        <translation>%1（Lambda：%2）</translation>
    </message>
    <message>
        <source>image: Lambda&apos;s default, the latest Lambda Stack (Ubuntu with the NVIDIA driver, CUDA and PyTorch)</source>
        <translation>镜像：Lambda 默认镜像，即最新的 Lambda Stack（预装 NVIDIA 驱动、CUDA 和 PyTorch 的 Ubuntu）</translation>
    </message>
    <message>
        <source>image: the newest of the image family %1</source>
        <translation>镜像：镜像族 %1 中最新的一个</translation>
    </message>
    <message>
        <source>image: %1, as given</source>
        <translation>镜像：按指定使用 %1</translation>
    </message>
    <message>
        <source>SSH is not limited to %1: Lambda&apos;s firewall rules are the account&apos;s, for all its instances, and GPU Planner does not change them; whoever those rules let in reaches SSH, and your key is the only way in</source>
        <translation>SSH 未限制为仅 %1 可访问：Lambda 的防火墙规则属于整个账号、作用于其所有实例，GPU Planner 不会修改；这些规则放行的来源都能连到 SSH，登录只能用你的密钥</translation>
    </message>
    <message>
        <source>your address</source>
        <translation>你的地址</translation>
    </message>
    <message>
        <source>found instance %1, named %2 (%3): an earlier attempt of this launch started it, so nothing new was launched</source>
        <translation>找到实例 %1，名称为 %2（%3）：这是本次启动之前的一次尝试创建的，因此没有再启动新实例</translation>
    </message>
    <message>
        <source>Lambda asked to slow down (one launch every 12 seconds): waited %1 s and sent the launch again (retry %2); nothing had been started</source>
        <translation>Lambda 要求降低频率（每 12 秒只能启动一次）：已等待 %1 秒后重新发送启动请求（第 %2 次重试）；此前没有创建任何实例</translation>
    </message>
</context>
<context>
    <name>LedgerErrors</name>
    <message>
        <source>entry %1</source>
        <translation>条目 %1</translation>
    </message>
    <message>
        <source>entry %1 (%2)</source>
        <translation>条目 %1（%2）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1/month</source>
        <translation>%1/月</translation>
    </message>
    <message>
        <source>%1/h</source>
        <translation>%1/小时</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>ledger: %1</source>
        <translation>账本：%1</translation>
    </message>
    <message>
        <source>ledger: reading its version: %1</source>
        <translation>账本：读取其版本时出错：%1</translation>
    </message>
    <message>
        <source>ledger: recording a launch: %1</source>
        <translation>账本：记录启动时出错：%1</translation>
    </message>
    <message>
        <source>ledger: marking a launch requested: %1</source>
        <translation>账本：将启动标记为已请求时出错：%1</translation>
    </message>
    <message>
        <source>ledger: recording a note on a launch: %1</source>
        <translation>账本：记录启动备注时出错：%1</translation>
    </message>
    <message>
        <source>ledger: updating a launch: %1</source>
        <translation>账本：更新启动记录时出错：%1</translation>
    </message>
    <message>
        <source>ledger: recording the price of an adopted instance: %1</source>
        <translation>账本：记录对账补录实例的价格时出错：%1</translation>
    </message>
    <message>
        <source>ledger: reading: %1</source>
        <translation>账本：读取时出错：%1</translation>
    </message>
    <message>
        <source>ledger: recording a budget: %1</source>
        <translation>账本：记录预算时出错：%1</translation>
    </message>
    <message>
        <source>ledger: recording a verification: %1</source>
        <translation>账本：记录验证结果时出错：%1</translation>
    </message>
    <message>
        <source>ledger: reading the verifications: %1</source>
        <translation>账本：读取验证结果时出错：%1</translation>
    </message>
    <message>
        <source>ledger: reading the budgets: %1</source>
        <translation>账本：读取预算时出错：%1</translation>
    </message>
    <message>
        <source>cannot open the ledger: %1</source>
        <translation>无法打开账本：%1</translation>
    </message>
    <message>
        <source>not a GPU Planner ledger (ledger: %1)</source>
        <translation>不是 GPU Planner 的账本（账本：%1）</translation>
    </message>
    <message>
        <source>written by a newer GPU Planner (ledger version %1); this one reads up to version %2: update it</source>
        <translation>由更新版本的 GPU Planner 写入（账本版本 %1）；当前版本最高只能读取版本 %2：请升级</translation>
    </message>
    <message>
        <source>cannot add the budgets to the ledger (ledger: %1)</source>
        <translation>无法在账本中添加预算（账本：%1）</translation>
    </message>
    <message>
        <source>cannot add the verifications to the ledger (ledger: %1)</source>
        <translation>无法在账本中添加验证记录（账本：%1）</translation>
    </message>
    <message>
        <source>cannot add the request times to the ledger (ledger: %1)</source>
        <translation>无法在账本中添加请求时间（账本：%1）</translation>
    </message>
    <message>
        <source>cannot add the launch price quotes to the ledger (ledger: %1)</source>
        <translation>无法在账本中添加启动时的报价（账本：%1）</translation>
    </message>
    <message>
        <source>a launch needs a client token (idempotency)</source>
        <translation>启动需要客户端令牌（用于幂等）</translation>
    </message>
    <message>
        <source>another GPU Planner process closed or finished this launch before its request went out; nothing was sent (see `gpuplan instances`)</source>
        <translation>另一个 GPU Planner 进程在请求发出前已关闭或完成了这次启动；未发送任何请求（参见 `gpuplan instances`）</translation>
    </message>
    <message>
        <source>cannot create the launch&apos;s lock file</source>
        <translation>无法创建这次启动的锁文件</translation>
    </message>
    <message>
        <source>another GPU Planner process is sending this launch (token %1) right now; wait for it to finish, then see `gpuplan instances`</source>
        <translation>另一个 GPU Planner 进程正在发送这次启动（令牌 %1）；请等它完成，然后查看 `gpuplan instances`</translation>
    </message>
    <message>
        <source>cannot lock the launch&apos;s lock file</source>
        <translation>无法锁定这次启动的锁文件</translation>
    </message>
    <message>
        <source>no launch %1 in the ledger</source>
        <translation>账本中没有启动 %1</translation>
    </message>
    <message>
        <source>entry %1 is not an adopted instance: a launch keeps the price it was launched at</source>
        <translation>条目 %1 不是对账补录的实例：启动的实例保持其启动时的价格</translation>
    </message>
    <message>
        <source>no launch %1 in the ledger (gpuplan instances lists them)</source>
        <translation>账本中没有启动 %1（gpuplan instances 会列出所有启动）</translation>
    </message>
    <message>
        <source>there is no user data folder for the ledger (set HOME)</source>
        <translation>没有可存放账本的用户数据目录（请设置 HOME）</translation>
    </message>
    <message>
        <source>this launch could take the plan to %1 of its budget of %2 (spent %3, the running instances until their dead-man %4, this one until its dead-man %5); terminate something, shorten the dead-man or raise the budget</source>
        <translation>这次启动可能使方案花费达到 %1，而预算为 %2（已花费 %3，运行中的实例到自动关机为止 %4，本实例到自动关机为止 %5）；请终止一些实例、缩短自动关机时间或提高预算</translation>
    </message>
    <message>
        <source>no zone of %1 offers %2; choose another region (GPU Planner does not switch regions without asking)</source>
        <translation>%1 没有任何可用区提供 %2；请选择其他地域（GPU Planner 不会未经询问就切换地域）</translation>
    </message>
    <message>
        <source>no capacity for %1 in any zone of %2 (tried %3); try another region or later (GPU Planner does not switch regions without asking)</source>
        <translation>%2 的所有可用区都没有 %1 的容量（已尝试 %3）；请换一个地域或稍后再试（GPU Planner 不会未经询问就切换地域）</translation>
    </message>
    <message>
        <source>it runs but has no public address to reach SSH on</source>
        <translation>实例已运行，但没有可用于连接 SSH 的公网地址</translation>
    </message>
    <message>
        <source>stopped waiting for SSH</source>
        <translation>已停止等待 SSH</translation>
    </message>
    <message>
        <source>SSH (port %1) does not answer after %2 s; the instance runs and bills: check it, or terminate it</source>
        <translation>SSH（端口 %1）在 %2 秒后仍无响应；实例正在运行并计费：请检查它，或将其终止</translation>
    </message>
    <message>
        <source>no such entry in the ledger</source>
        <translation>账本中没有这个条目</translation>
    </message>
    <message>
        <source>this entry belongs to %1</source>
        <translation>这个条目属于 %1</translation>
    </message>
    <message>
        <source>the provider has not named this launch&apos;s instance yet; reconcile first (`gpuplan instances --reconcile`)</source>
        <translation>云厂商尚未给出这次启动的实例 ID；请先对账（`gpuplan instances --reconcile`）</translation>
    </message>
    <message>
        <source>%1 still reports it %2 after the request to terminate it; the ledger keeps it live: terminate it again</source>
        <translation>请求终止后 %1 仍报告其状态为 %2；账本将其保留为活动状态：请再次终止</translation>
    </message>
    <message>
        <source>%1 does not show this instance yet (it was launched moments ago), so it may not have been terminated; the ledger keeps it live: terminate it again in a minute</source>
        <translation>%1 尚未显示这个实例（它刚刚启动），因此可能没有被终止；账本将其保留为活动状态：请一分钟后再次终止</translation>
    </message>
    <message>
        <source>no catalog was loaded</source>
        <translation>未加载机型与价格目录</translation>
    </message>
    <message>
        <source>%1 does not say how it is paid for (a prepaid instance&apos;s period is not listed)</source>
        <translation>%1 没有说明它的计费方式（预付费实例的周期未列出）</translation>
    </message>
    <message>
        <source>no such ledger entry</source>
        <translation>没有这个账本条目</translation>
    </message>
    <message>
        <source>no credential</source>
        <translation>没有凭据</translation>
    </message>
    <message>
        <source>reopened: %1 shows it %2 after the ledger had closed it (%3)</source>
        <translation>已重新打开：账本关闭它之后 %1 显示其状态为 %2（%3）</translation>
    </message>
    <message>
        <source>never sent (the program stopped before the request)</source>
        <translation>从未发送（程序在发出请求前已停止）</translation>
    </message>
    <message>
        <source>never sent</source>
        <translation>从未发送</translation>
    </message>
    <message>
        <source>outcome unknown: the provider never showed an instance for its token in the %1 minutes after the request (never seen); reconciliation reopens it if one shows up</source>
        <translation>结果未知：请求后 %1 分钟内云厂商一直没有显示与其令牌对应的实例（从未出现）；如果之后出现，对账会重新打开它</translation>
    </message>
    <message>
        <source>found at the provider by reconciliation; its price at launch is unknown</source>
        <translation>对账时在云厂商处发现；其启动时的价格未知</translation>
    </message>
    <message>
        <source>found at the provider by reconciliation; costed at the catalog&apos;s %1 price of %2 in %3, %4 (its price at launch is unknown)</source>
        <translation>对账时在云厂商处发现；按目录中 %2 在 %3 的 %1 价格计费，%4（其启动时的价格未知）</translation>
    </message>
    <message>
        <source>outcome unknown: %1; launching the same again resends it with its token</source>
        <translation>结果未知：%1；再次进行相同的启动会用其令牌重新发送</translation>
    </message>
    <message>
        <source>resumed after its outcome was unknown: this is its instance</source>
        <translation>在结果未知后恢复：这就是它的实例</translation>
    </message>
    <message>
        <source>%1 runs an instance of ours the ledger did not have; recorded as entry %2</source>
        <translation>%1 上运行着一个账本中没有的、属于我们的实例；已记录为条目 %2</translation>
    </message>
    <message>
        <source>entry %1 closed as failed: %2</source>
        <translation>条目 %1 已作为失败关闭：%2</translation>
    </message>
    <message>
        <source>entry %1 ended at %2 (outside this program); closed</source>
        <translation>条目 %1 已在 %2 上结束（在本程序之外）；已关闭</translation>
    </message>
    <message>
        <source>entry %1 (%2) is live at %3 after the ledger had closed it; reopened</source>
        <translation>账本关闭条目 %1（%2）之后它在 %3 上仍处于活动状态；已重新打开</translation>
    </message>
    <message>
        <source>%1, adopted, is costed at the catalog&apos;s %2 price of %3 in %4: %5</source>
        <translation>%1（对账补录的实例）按目录中 %3 在 %4 的 %2 价格计费：%5</translation>
    </message>
    <message>
        <source>%1, adopted, could not be given the catalog&apos;s price: %2</source>
        <translation>%1（对账补录的实例）无法设置目录中的价格：%2</translation>
    </message>
    <message>
        <source>%1, adopted: no price is known for it (%2), so its cost and the budgets leave it out</source>
        <translation>%1（对账补录的实例）：没有已知价格（%2），因此费用和预算都不计入它</translation>
    </message>
    <message>
        <source>the dead-man of %1 passed %2 ago and the instance is still there (stopped): terminated it</source>
        <translation>%1 的自动关机时间已过去 %2，但实例仍然存在（已停止）：已将其终止</translation>
    </message>
    <message>
        <source>the dead-man of %1 passed %2 ago and the instance still runs: terminated it</source>
        <translation>%1 的自动关机时间已过去 %2，但实例仍在运行：已将其终止</translation>
    </message>
    <message>
        <source>the dead-man of %1 passed %2 ago and the instance is still there (stopped): could NOT terminate it: %3</source>
        <translation>%1 的自动关机时间已过去 %2，但实例仍然存在（已停止）：无法终止它：%3</translation>
    </message>
    <message>
        <source>the dead-man of %1 passed %2 ago and the instance still runs: could NOT terminate it: %3</source>
        <translation>%1 的自动关机时间已过去 %2，但实例仍在运行：无法终止它：%3</translation>
    </message>
    <message>
        <source>the plans&apos; budgets were NOT checked: the catalog has no USD-CNY exchange rate (exchange_rate.json in the catalog folder)</source>
        <translation>未检查方案的预算：目录中没有美元兑人民币汇率（目录文件夹中的 exchange_rate.json）</translation>
    </message>
    <message>
        <source>plan %1 has spent its budget: entry %2 (%3) terminated</source>
        <translation>方案 %1 已用完预算：条目 %2（%3）已终止</translation>
    </message>
    <message>
        <source>plan %1 has spent its budget: entry %2 (%3) could NOT be terminated: %4</source>
        <translation>方案 %1 已用完预算：条目 %2（%3）无法终止：%4</translation>
    </message>
    <message>
        <source>terminate refused: %1</source>
        <translation>终止被拒绝：%1</translation>
    </message>
    <message>
        <source>%1; the request may have reached %2 and started an instance: the ledger keeps it as requested, and launching the same again takes that instance once %2 lists it, or resends the request under the same token (never a second instance); `gpuplan instances --reconcile` finds out</source>
        <translation>%1；请求可能已到达 %2 并创建了实例：账本将其记为“已请求”，再次执行同样的启动时，一旦 %2 列出该实例就直接接管它，否则用同一令牌重发请求（绝不会多出第二台）；也可用 `gpuplan instances --reconcile` 查明</translation>
    </message>
    <message numerus="yes">
        <source>%1 takes no idempotency token, and the earlier request of ledger entry %2 may have started an instance that %1 does not list yet; GPU Planner resends it only when that can no longer be, in %n minute(s) (or `gpuplan instances` finds the instance first)</source>
        <translation>
            <numerusform>%1 不支持幂等令牌，账本条目 %2 之前的请求可能已创建了实例，只是 %1 还没列出来；GPU Planner 要等到这种可能排除后（%n 分钟后）才会重发（或在此之前由 `gpuplan instances` 找到该实例）</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot add the managed jobs to the ledger (ledger: %1)</source>
        <translation>无法在账本中加入托管作业（账本：%1）</translation>
    </message>
    <message>
        <source>the job finished (%1)</source>
        <translation>作业已完成（%1）</translation>
    </message>
    <message>
        <source>the job was cancelled (%1)</source>
        <translation>作业已取消（%1）</translation>
    </message>
    <message>
        <source>the job failed (%1): its log says why</source>
        <translation>作业失败（%1）：原因见作业日志</translation>
    </message>
    <message>
        <source>the job ended (%1)</source>
        <translation>作业已结束（%1）</translation>
    </message>
    <message>
        <source>job %1 finished; closed</source>
        <translation>作业 %1 已完成，已关闭</translation>
    </message>
    <message>
        <source>job %1 was cancelled; closed</source>
        <translation>作业 %1 已取消，已关闭</translation>
    </message>
    <message>
        <source>job %1 failed; closed (its log says why)</source>
        <translation>作业 %1 失败，已关闭（原因见作业日志）</translation>
    </message>
    <message>
        <source>job %1 ended; closed</source>
        <translation>作业 %1 已结束，已关闭</translation>
    </message>
    <message>
        <source>ledger: recording a run: %1</source>
        <translation>账本：记录运行时出错：%1</translation>
    </message>
    <message>
        <source>ledger: reading the runs: %1</source>
        <translation>账本：读取运行记录时出错：%1</translation>
    </message>
    <message>
        <source>cannot add the training runs to the ledger (ledger: %1)</source>
        <translation>无法在账本中加入训练运行记录（账本：%1）</translation>
    </message>
    <message>
        <source>no run %1 in the ledger (gpuplan runs lists them)</source>
        <translation>账本中没有运行 %1（用 gpuplan runs 查看所有运行）</translation>
    </message>
    <message>
        <source>no launch %1 in the ledger to run on (gpuplan instances lists them)</source>
        <translation>账本中没有可运行的实例记录 %1（用 gpuplan instances 查看）</translation>
    </message>
    <message>
        <source>ledger: recording the instance&apos;s address: %1</source>
        <translation>账本：记录实例地址时出错：%1</translation>
    </message>
    <message>
        <source>cannot add the runs&apos; attempts to the ledger (ledger: %1)</source>
        <translation>无法在账本中添加运行的尝试记录（账本：%1）</translation>
    </message>
    <message>
        <source>no attempt %1 in the ledger</source>
        <translation>账本中没有尝试记录 %1</translation>
    </message>
    <message>
        <source>this launch has no instance to wait for yet</source>
        <translation>这次创建还没有可等待的实例</translation>
    </message>
</context>
<context>
    <name>NetErrors</name>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a URL: no scheme</source>
        <translation>“%1”不是 URL：缺少协议</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a URL: only http and https</source>
        <translation>“%1”不是 URL：只支持 http 和 https</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a URL: no host</source>
        <translation>“%1”不是 URL：缺少主机</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a URL: user information in the URL is not allowed</source>
        <translation>“%1”不是 URL：URL 中不允许包含用户信息</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a URL: bad port</source>
        <translation>“%1”不是 URL：端口无效</translation>
    </message>
    <message>
        <source>no answer in time from %1 (%2)</source>
        <translation>%1 未在规定时间内应答（%2）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the certificate of %1 is not trusted (%2). Verification is always on: if your network inspects TLS with its own CA, add that CA&apos;s certificate file (Settings -&gt; Network, or gpuplan&apos;s --ca-file)</source>
        <translation>%1 的证书不受信任（%2）。证书校验始终开启：如果你的网络用自己的 CA 检查 TLS 流量，请添加该 CA 的证书文件（设置 -&gt; 网络，或 gpuplan 的 --ca-file）</translation>
    </message>
    <message>
        <source>%1 closed the connection before the whole answer came (%2)</source>
        <translation>%1 在应答完整传回之前关闭了连接（%2）</translation>
    </message>
    <message>
        <source>cannot reach %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <source>cannot set %1: %2</source>
        <translation>无法设置 %1：%2</translation>
    </message>
    <message>
        <source>cannot start a transfer (curl_easy_init)</source>
        <translation>无法启动传输（curl_easy_init）</translation>
    </message>
    <message>
        <source>cannot be written (to save the download)</source>
        <translation>无法写入（用于保存下载内容）</translation>
    </message>
    <message>
        <source>the download could not be written (disk full?)</source>
        <translation>下载内容无法写入（磁盘已满？）</translation>
    </message>
    <message>
        <source>%1 sent an answer larger than %2 MiB; it was not read further (a cloud API answers in kilobytes: a proxy or a wrong endpoint?)</source>
        <translation>%1 返回的应答超过 %2 MiB，已停止读取（云 API 的应答通常只有几 KB：是代理问题还是端点写错了？）</translation>
    </message>
    <message>
        <source>your clock is %1 minute slow; %2 allows %3: set the time automatically (NTP) and try again</source>
        <translation>本机时钟慢了 %1 分钟；%2 允许的偏差为 %3 分钟：请开启自动校时（NTP）后重试</translation>
    </message>
    <message>
        <source>your clock is %1 minutes slow; %2 allows %3: set the time automatically (NTP) and try again</source>
        <translation>本机时钟慢了 %1 分钟；%2 允许的偏差为 %3 分钟：请开启自动校时（NTP）后重试</translation>
    </message>
    <message>
        <source>your clock is %1 minute fast; %2 allows %3: set the time automatically (NTP) and try again</source>
        <translation>本机时钟快了 %1 分钟；%2 允许的偏差为 %3 分钟：请开启自动校时（NTP）后重试</translation>
    </message>
    <message>
        <source>your clock is %1 minutes fast; %2 allows %3: set the time automatically (NTP) and try again</source>
        <translation>本机时钟快了 %1 分钟；%2 允许的偏差为 %3 分钟：请开启自动校时（NTP）后重试</translation>
    </message>
    <message>
        <source>no random bytes for %1</source>
        <translation>无法为 %1 获取随机字节</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 计算失败</translation>
    </message>
    <message>
        <source>no HTTP method to sign</source>
        <translation>没有可签名的 HTTP 方法</translation>
    </message>
    <message>
        <source>TC3-HMAC-SHA256 signs Content-Type, and the request has none: set it to the body&apos;s type</source>
        <translation>TC3-HMAC-SHA256 需要对 Content-Type 签名，但请求中没有该头：请将其设为请求体的类型</translation>
    </message>
    <message>
        <source>the Azure app registration has no tenant ID; enter it in the provider&apos;s settings</source>
        <translation>Azure 应用注册缺少租户 ID；请在该云厂商的设置中填写</translation>
    </message>
    <message>
        <source>the Azure app registration has no client ID; enter it in the provider&apos;s settings</source>
        <translation>Azure 应用注册缺少客户端 ID；请在该云厂商的设置中填写</translation>
    </message>
    <message>
        <source>the Azure app registration has no client secret; enter it in the provider&apos;s settings</source>
        <translation>Azure 应用注册缺少客户端密码；请在该云厂商的设置中填写</translation>
    </message>
    <message>
        <source>the service account key is not a JSON object: download the key again (Google Cloud console, IAM, Service accounts, Keys, Add key, JSON)</source>
        <translation>服务账号密钥不是 JSON 对象：请重新下载密钥（Google Cloud 控制台 → IAM → 服务账号 → 密钥 → 添加密钥 → JSON）</translation>
    </message>
    <message>
        <source>must be &quot;service_account&quot;: this is another kind of Google credential (a user login or a workload identity file); create a service account key instead</source>
        <translation>必须为“service_account”：这是另一种 Google 凭据（用户登录凭据或工作负载身份文件）；请改为创建服务账号密钥</translation>
    </message>
    <message>
        <source>the service account key has no &quot;%1&quot;; download the key again</source>
        <translation>服务账号密钥缺少“%1”；请重新下载密钥</translation>
    </message>
    <message>
        <source>the service account key has a &quot;%1&quot; that is not a non-empty string; download the key again</source>
        <translation>服务账号密钥中的“%1”不是非空字符串；请重新下载密钥</translation>
    </message>
    <message>
        <source>the service account key has a &quot;%1&quot; that is not a string</source>
        <translation>服务账号密钥中的“%1”不是字符串</translation>
    </message>
    <message>
        <source>the private key is too large to be a PEM key</source>
        <translation>私钥过大，不可能是 PEM 密钥</translation>
    </message>
    <message>
        <source>could not read the private key (OpenSSL: %1)</source>
        <translation>无法读取私钥（OpenSSL：%1）</translation>
    </message>
    <message>
        <source>the private key is not an unencrypted PEM private key; download the key again (OpenSSL: %1)</source>
        <translation>私钥不是未加密的 PEM 私钥；请重新下载密钥（OpenSSL：%1）</translation>
    </message>
    <message>
        <source>the private key is not an RSA key; RS256 needs one</source>
        <translation>私钥不是 RSA 密钥；RS256 需要 RSA 密钥</translation>
    </message>
    <message>
        <source>could not start an RS256 signature (OpenSSL: %1)</source>
        <translation>无法开始 RS256 签名（OpenSSL：%1）</translation>
    </message>
    <message>
        <source>could not size the RS256 signature (OpenSSL: %1)</source>
        <translation>无法确定 RS256 签名的长度（OpenSSL：%1）</translation>
    </message>
    <message>
        <source>could not compute the RS256 signature (OpenSSL: %1)</source>
        <translation>无法计算 RS256 签名（OpenSSL：%1）</translation>
    </message>
    <message>
        <source>%1 token endpoint answered HTTP %2 without an OAuth2 error; try again later</source>
        <translation>%1 令牌端点返回 HTTP %2，但没有 OAuth2 错误信息；请稍后重试</translation>
    </message>
    <message>
        <source>%1 token endpoint is throttling requests (%2); try again later</source>
        <translation>%1 令牌端点正在限流（%2）；请稍后重试</translation>
    </message>
    <message>
        <source>%1 token endpoint failed (%2); try again later</source>
        <translation>%1 令牌端点出错（%2）；请稍后重试</translation>
    </message>
    <message>
        <source>%1 refused the credentials (%2); check that they are current and that this computer&apos;s clock is right</source>
        <translation>%1 拒绝了凭据（%2）；请检查凭据是否仍然有效，以及本机时钟是否准确</translation>
    </message>
    <message>
        <source>%1 token endpoint answered HTTP %2 with a body that is not a JSON object</source>
        <translation>%1 令牌端点返回 HTTP %2，但应答体不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1 token reply has no &quot;access_token&quot; string</source>
        <translation>%1 令牌应答中没有“access_token”字符串</translation>
    </message>
    <message>
        <source>%1 token reply&apos;s &quot;token_type&quot; is not Bearer, the only type this client sends</source>
        <translation>%1 令牌应答中的“token_type”不是 Bearer，而本客户端只支持 Bearer</translation>
    </message>
    <message>
        <source>cannot create the folder: %1</source>
        <translation>无法创建文件夹：%1</translation>
    </message>
    <message>
        <source>cannot read the folder: %1</source>
        <translation>无法读取文件夹：%1</translation>
    </message>
    <message>
        <source>is not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>cannot restrict the folder to its owner: %1</source>
        <translation>无法将文件夹权限限制为仅所有者可访问：%1</translation>
    </message>
    <message>
        <source>cannot create a file beside it: %1</source>
        <translation>无法在其旁边创建文件：%1</translation>
    </message>
    <message>
        <source>cannot set the file&apos;s permissions: %1</source>
        <translation>无法设置文件权限：%1</translation>
    </message>
    <message>
        <source>cannot write: %1</source>
        <translation>无法写入：%1</translation>
    </message>
    <message>
        <source>cannot flush to disk: %1</source>
        <translation>无法刷写到磁盘：%1</translation>
    </message>
    <message>
        <source>cannot replace it: %1</source>
        <translation>无法替换该文件：%1</translation>
    </message>
    <message>
        <source>%1 (after %2 attempts)</source>
        <translation>%1（已尝试 %2 次）</translation>
    </message>
    <message>
        <source>%1 (not retried: the request is not safe to repeat, it carries no idempotency token)</source>
        <translation>%1（未重试：该请求不带幂等令牌，重复发送不安全）</translation>
    </message>
</context>
<context>
    <name>PaperspaceText</name>
    <message>
        <source>this machine type</source>
        <translation>该机器类型</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>Paperspace is limiting the rate of API requests (%1): wait a minute and try again</source>
        <translation>Paperspace 正在限制 API 请求频率（%1）：请等一分钟后重试</translation>
    </message>
    <message>
        <source>Paperspace refused the API key (%1): check it, or create a new one in the console (Team settings -&gt; API keys)</source>
        <translation>Paperspace 拒绝了该 API 密钥（%1）：请检查密钥，或在控制台（Team settings -&gt; API keys）新建一个</translation>
    </message>
    <message>
        <source>Paperspace refused %1 for the account&apos;s billing: add a payment method or settle the balance in the console (Billing), then try again</source>
        <translation>Paperspace 因账户计费问题拒绝了 %1：请在控制台（Billing）添加支付方式或结清欠费后重试</translation>
    </message>
    <message>
        <source>Paperspace has no %1 free in %2 right now: try another region or later</source>
        <translation>Paperspace 在 %2 暂时没有空闲的 %1：请换个地域或稍后再试</translation>
    </message>
    <message>
        <source>the launch would exceed the team&apos;s machine limit for %1: delete a machine you no longer need, or ask Paperspace support to raise the limit</source>
        <translation>本次启动会超出团队在 %1 上的机器数量上限：请删除不再使用的机器，或联系 Paperspace 支持提高上限</translation>
    </message>
    <message>
        <source>the API key may not do %1: use a key of a team administrator (only they may create machines)</source>
        <translation>该 API 密钥无权执行 %1：请使用团队管理员的密钥（只有管理员能创建机器）</translation>
    </message>
    <message>
        <source>Paperspace does not know what %1 asked for</source>
        <translation>Paperspace 找不到 %1 所请求的对象</translation>
    </message>
    <message>
        <source>Paperspace refused %1</source>
        <translation>Paperspace 拒绝了 %1</translation>
    </message>
    <message>
        <source>Paperspace answered %1 with HTTP status %2</source>
        <translation>Paperspace 对 %1 返回了 HTTP 状态码 %2</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>the SSH public key must be one OpenSSH public key line (ssh-ed25519 AAAA... comment) without quotes: Paperspace gets it through a startup script</source>
        <translation>SSH 公钥必须是一行 OpenSSH 公钥（ssh-ed25519 AAAA... 注释），且不含引号：Paperspace 通过启动脚本写入该公钥</translation>
    </message>
    <message>
        <source>the launch token %1 does not start with gpuplan-: GPU Planner would not recognise the machine as its own</source>
        <translation>启动令牌 %1 不以 gpuplan- 开头：GPU Planner 将无法识别这台机器是自己创建的</translation>
    </message>
    <message>
        <source>Paperspace lists no ML-in-a-Box template that runs %1: give a template id as the image (see OS templates in the Paperspace console)</source>
        <translation>Paperspace 没有能运行 %1 的 ML-in-a-Box 模板：请把模板 ID 填作镜像（可在 Paperspace 控制台的 OS templates 中查看）</translation>
    </message>
    <message>
        <source>Paperspace has no %1 available in %2 right now; nothing was created: try another region or later</source>
        <translation>Paperspace 在 %2 暂时没有可用的 %1，未创建任何资源：请换个地域或稍后再试</translation>
    </message>
    <message>
        <source>Paperspace&apos;s create event for machine %1 ended as %2: %3</source>
        <translation>Paperspace 为机器 %1 创建的事件以 %2 结束：%3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (Paperspace: %2)</source>
        <translation>%1（Paperspace：%2）</translation>
    </message>
    <message>
        <source>Paperspace has no key pairs: the key is added for user %1 by startup script %2 on the machine&apos;s first boot</source>
        <translation>Paperspace 没有密钥对：公钥会在机器首次启动时由启动脚本 %2 写入用户 %1 的账户</translation>
    </message>
    <message>
        <source>Paperspace machines have no firewall in its API: SSH is open to every address, not only %1 (the key is the only lock)</source>
        <translation>Paperspace 的 API 不提供机器防火墙：SSH 对所有地址开放，而不仅是 %1（密钥是唯一的保护）</translation>
    </message>
    <message>
        <source>found machine %1 named %2 from an earlier attempt of this launch: nothing new was created</source>
        <translation>找到本次启动之前一次尝试创建的机器 %1（名称 %2）：未新建任何机器</translation>
    </message>
    <message>
        <source>found the startup script %1 of an earlier attempt</source>
        <translation>找到之前一次尝试创建的启动脚本 %1</translation>
    </message>
    <message>
        <source>created startup script %1 (adds the SSH key, starts the watchdog)</source>
        <translation>已创建启动脚本 %1（写入 SSH 公钥并启动看门狗）</translation>
    </message>
    <message>
        <source>Paperspace asked to slow down (429): nothing was created; waited %1 s and sent the launch again (attempt %2)</source>
        <translation>Paperspace 要求降低请求频率（429）：未创建任何资源；已等待 %1 秒后重新发送启动请求（第 %2 次）</translation>
    </message>
</context>
<context>
    <name>PlanCharts</name>
    <message>
        <source>Total cost by option (%1), with its range</source>
        <translation>各方案总成本（%1）及浮动区间</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Data transfer</source>
        <translation>数据传输</translation>
    </message>
    <message>
        <source>Cost (%1)</source>
        <translation>成本（%1）</translation>
    </message>
    <message>
        <source>Range (low–high)</source>
        <translation>区间（最低–最高）</translation>
    </message>
    <message>
        <source>Time against cost for every option; the Pareto front is highlighted</source>
        <translation>各方案的时间与成本对比（高亮为帕累托前沿）</translation>
    </message>
    <message>
        <source>Option</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Pareto front: nothing else is both cheaper and faster</source>
        <translation>帕累托前沿：没有其他方案能同时更便宜又更快</translation>
    </message>
    <message>
        <source>Estimated time (hours, log scale)</source>
        <translation>预计用时（小时，对数坐标）</translation>
    </message>
    <message>
        <source>Cost (%1, log scale)</source>
        <translation>成本（%1，对数坐标）</translation>
    </message>
    <message>
        <source>Buying against renting: not available (%1)</source>
        <translation>自购与租用对比：无法计算（%1）</translation>
    </message>
    <message>
        <source>Cumulative cost of %1 × %2: renting against buying, at %3 % utilisation</source>
        <translation>%1 × %2 累计成本：租用与自购对比（利用率 %3%）</translation>
    </message>
    <message>
        <source>(electricity not included: set its price in Settings)</source>
        <translation>（未计入电费：可在“设置”中填写电价）</translation>
    </message>
    <message>
        <source>Buy the server</source>
        <translation>自购服务器</translation>
    </message>
    <message>
        <source>On-demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>Reserved 1 year</source>
        <translation>1 年预留实例</translation>
    </message>
    <message>
        <source>Reserved 3 years</source>
        <translation>3 年预留实例</translation>
    </message>
    <message>
        <source>Monthly subscription</source>
        <translation>包月</translation>
    </message>
    <message>
        <source>Break-even</source>
        <translation>盈亏平衡点</translation>
    </message>
    <message>
        <source>month %1</source>
        <translation>第 %1 个月</translation>
    </message>
    <message>
        <source>Months</source>
        <translation>月数</translation>
    </message>
    <message>
        <source>Cumulative cost (%1)</source>
        <translation>累计成本（%1）</translation>
    </message>
    <message>
        <source>Spot: distribution of cost (P10, P25, P50, P75, P90) against on-demand</source>
        <translation>竞价实例成本分布（P10、P25、P50、P75、P90）与按量付费对比</translation>
    </message>
    <message>
        <source>Spot: distribution of completion time (P10–P90) against on-demand</source>
        <translation>竞价实例完成时间分布（P10–P90）与按量付费对比</translation>
    </message>
    <message>
        <source>Spot, simulated (box P25–P75, whiskers P10–P90)</source>
        <translation>竞价实例模拟结果（箱体 P25–P75，须线 P10–P90）</translation>
    </message>
    <message>
        <source>Spot: no option in this plan has a spot price with a published interruption rate</source>
        <translation>竞价实例：本规划中没有同时具备竞价价格和公开中断率的方案</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>Price per effective TFLOPS-hour by GPU model (cheapest on-demand offer, %1)</source>
        <translation>各 GPU 型号每有效算力 TFLOPS·小时价格（取最便宜的按量付费报价，%1）</translation>
    </message>
    <message>
        <source>Price per effective TFLOPS-hour</source>
        <translation>每有效算力 TFLOPS·小时价格</translation>
    </message>
    <message>
        <source>%1 per effective TFLOPS-hour (peak × efficiency)</source>
        <translation>每有效算力 TFLOPS·小时 %1（峰值 × 效率）</translation>
    </message>
    <message>
        <source>%1, spot
P10 %2 · P25 %3 · P50 %4 · P75 %5 · P90 %6</source>
        <translation>%1，竞价实例
P10 %2 · P25 %3 · P50 %4 · P75 %5 · P90 %6</translation>
    </message>
    <message>
        <source>%1, on-demand: %2</source>
        <translation>%1，按量付费：%2</translation>
    </message>
    <message>
        <source>(P10 to P90 within 2 %: at these interruption rates spot barely changes this run)</source>
        <translation>（P10 到 P90 相差不到 2%：在这样的回收率下，竞价实例几乎不影响本次训练）</translation>
    </message>
    <message>
        <source>commits the lab to %1</source>
        <translation>需锁定投入 %1</translation>
    </message>
    <message>
        <source>Buying pays off against %1 after %2</source>
        <translation>与%1相比，自购在 %2后回本</translation>
    </message>
    <message>
        <source>(their providers publish none, and GPU Planner does not guess one: their spot prices are on the Compare page, not simulated)</source>
        <translation>（这些云厂商没有公布中断率，GPU Planner 不会去猜：它们的竞价价格列在对比页，但不做模拟）</translation>
    </message>
    <message>
        <source>Spot: no option in this plan has a spot price</source>
        <translation>竞价实例：本规划中的方案都没有竞价价格</translation>
    </message>
    <message>
        <source>(the catalog has none for these offers; Catalog → Refresh prices reads Alibaba Cloud&apos;s and Tencent Cloud&apos;s with your account)</source>
        <translation>（机型与价格里没有这些机型的竞价价格；可在“机型与价格 → 刷新价格”中用你的账号读取阿里云和腾讯云的竞价价格）</translation>
    </message>
</context>
<context>
    <name>PlanText</name>
    <message>
        <source>Image classification</source>
        <translation>图像分类</translation>
    </message>
    <message>
        <source>Object detection</source>
        <translation>目标检测</translation>
    </message>
    <message>
        <source>3D detection</source>
        <translation>3D 目标检测</translation>
    </message>
    <message>
        <source>NLP (encoders)</source>
        <translation>NLP（编码器模型）</translation>
    </message>
    <message>
        <source>Large language models</source>
        <translation>大语言模型</translation>
    </message>
    <message>
        <source>tuned (MLPerf/NGC-grade code: DALI, fused kernels, CUDA graphs)</source>
        <translation>深度调优（MLPerf/NGC 级代码：DALI、融合算子、CUDA Graphs）</translation>
    </message>
    <message>
        <source>typical (framework defaults with mixed precision and a good data loader)</source>
        <translation>常规（框架默认配置，开混合精度，数据加载到位）</translation>
    </message>
    <message>
        <source>plain (eager code, default data loading)</source>
        <translation>朴素（eager 模式，默认数据加载）</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>算力</translation>
    </message>
    <message>
        <source>memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>what the software stack can feed the GPU</source>
        <translation>软件栈喂数据的速度跟不上 GPU</translation>
    </message>
    <message>
        <source>image decoding on the vCPUs</source>
        <translation>vCPU 上的图片解码</translation>
    </message>
    <message>
        <source>communication between GPUs</source>
        <translation>GPU 间通信</translation>
    </message>
</context>
<context>
    <name>PriceErrors</name>
    <message>
        <source>%1: the region index has no price file for it</source>
        <translation>%1：地域索引中没有它的价格文件</translation>
    </message>
    <message>
        <source>%1: no Linux price in the file for %2 of the catalog&apos;s %3 instance types there (they keep their bundled prices): %4</source>
        <translation>%1：价格文件中没有机型与价格目录在该地域的 %3 个实例类型中 %2 个的 Linux 价格（它们保留内置价格）：%4</translation>
    </message>
    <message>
        <source>%1: no Linux price in %2 (the bundled prices stay there)</source>
        <translation>%1：%2 中没有 Linux 价格（那里保留内置价格）</translation>
    </message>
    <message>
        <source>spot prices not read: they come from EC2&apos;s spot price history, which needs your AWS key (gpuplan creds set aws)</source>
        <translation>未读取竞价价格：它们来自 EC2 的竞价价格历史，需要你的 AWS 密钥（gpuplan creds set aws）</translation>
    </message>
    <message>
        <source>%1 in %2, %3</source>
        <translation>%1（%2），%3</translation>
    </message>
    <message>
        <source>%1 in %2, %3 month(s) prepaid</source>
        <translation>%1（%2），预付 %3 个月</translation>
    </message>
    <message>
        <source>%1, on_demand</source>
        <translation>%1，on_demand</translation>
    </message>
    <message>
        <source>%1: the account has no project there (IAM KeystoneListProjects); its bundled prices stay</source>
        <translation>%1：该账号在此地域没有项目（IAM KeystoneListProjects）；保留其内置价格</translation>
    </message>
    <message>
        <source>Huawei Cloud publishes no spot price: spot stays unknown</source>
        <translation>华为云不公布竞价价格：竞价价格保持未知</translation>
    </message>
    <message>
        <source>%1: the answer has no price_cents_per_hour; the bundled price stays</source>
        <translation>%1：应答中没有 price_cents_per_hour；保留内置价格</translation>
    </message>
    <message>
        <source>%1: not read from the SKUs (TPUs and this machine series are not joined yet); the bundled prices stay</source>
        <translation>%1：未从 SKU 读取（TPU 和该机器系列尚未组合）；保留内置价格</translation>
    </message>
    <message>
        <source>%1 in %2: no public image to quote a prepaid price with</source>
        <translation>%1（%2）：没有可用于询预付价格的公共镜像</translation>
    </message>
    <message>
        <source>%1 price file</source>
        <translation>%1 价格文件</translation>
    </message>
    <message>
        <source>reading %1 price file</source>
        <translation>正在读取 %1 价格文件</translation>
    </message>
    <message>
        <source>AWS spot prices in %1</source>
        <translation>%1 的 AWS 竞价价格</translation>
    </message>
    <message>
        <source>Azure retail prices of %1</source>
        <translation>%1 的 Azure 零售价格</translation>
    </message>
    <message>
        <source>Google Cloud SKUs, page %1</source>
        <translation>Google Cloud SKU，第 %1 页</translation>
    </message>
    <message>
        <source>Lambda instance types</source>
        <translation>Lambda 实例类型</translation>
    </message>
    <message>
        <source>Alibaba Cloud prices of %1 in %2</source>
        <translation>阿里云 %1 在 %2 的价格</translation>
    </message>
    <message>
        <source>Tencent Cloud prices in %1</source>
        <translation>腾讯云 %1 的价格</translation>
    </message>
    <message>
        <source>Huawei Cloud prices in %1</source>
        <translation>华为云 %1 的价格</translation>
    </message>
    <message>
        <source>%1: no %2 price in %3 (no spot price history for it)</source>
        <translation>%1：%3 中没有 %2 价格（它没有竞价价格历史）</translation>
    </message>
    <message>
        <source>%1: no %2 price in %3 (no spot price there now)</source>
        <translation>%1：%3 中没有 %2 价格（那里目前没有竞价价格）</translation>
    </message>
    <message>
        <source>%1: no %2 price in %3 (no matching SKUs there; the bundled price stays)</source>
        <translation>%1：%3 中没有 %2 价格（那里没有匹配的 SKU；保留内置价格）</translation>
    </message>
    <message>
        <source>%1: no %2 price in %3 (BSS did not rate it; the bundled price stays)</source>
        <translation>%1：%3 中没有 %2 价格（BSS 未给出询价；保留内置价格）</translation>
    </message>
    <message>
        <source>%1: no %2 price in %3 (Lambda no longer lists the type; the bundled price stays)</source>
        <translation>%1：%3 中没有 %2 价格（Lambda 已不再列出该类型；保留内置价格）</translation>
    </message>
    <message>
        <source>%1: no %2 price in %3 (not sold there now; the bundled price stays)</source>
        <translation>%1：%3 中没有 %2 价格（那里目前不售卖；保留内置价格）</translation>
    </message>
    <message>
        <source>the catalog has no %1 offers to refresh</source>
        <translation>机型与价格目录中没有可刷新的 %1 报价</translation>
    </message>
    <message>
        <source>the catalog has no %1 offer in %2</source>
        <translation>机型与价格目录中没有 %1 在 %2 的报价</translation>
    </message>
    <message>
        <source>reading %1&apos;s prices needs your AccessKey</source>
        <translation>读取 %1 的价格需要你的 AccessKey</translation>
    </message>
    <message>
        <source>reading %1&apos;s prices needs your access key (spot prices)</source>
        <translation>读取 %1 的价格需要你的访问密钥（竞价价格）</translation>
    </message>
    <message>
        <source>reading %1&apos;s prices needs your service account (or an API key)</source>
        <translation>读取 %1 的价格需要你的服务账号（或 API 密钥）</translation>
    </message>
    <message>
        <source>reading %1&apos;s prices needs your AK/SK</source>
        <translation>读取 %1 的价格需要你的 AK/SK</translation>
    </message>
    <message>
        <source>reading %1&apos;s prices needs your API key</source>
        <translation>读取 %1 的价格需要你的 API 密钥</translation>
    </message>
    <message>
        <source>reading %1&apos;s prices needs your SecretId and SecretKey</source>
        <translation>读取 %1 的价格需要你的 SecretId 和 SecretKey</translation>
    </message>
    <message>
        <source>Paperspace publishes no price API; its prices stay the bundled ones</source>
        <translation>Paperspace 不提供价格 API；其价格保持内置价格</translation>
    </message>
    <message>
        <source>unknown provider &apos;%1&apos;; prices are read for aws, azure, gcp, lambda, alibaba, tencent and huawei</source>
        <translation>未知的云厂商“%1”；可读取价格的有 aws、azure、gcp、lambda、alibaba、tencent 和 huawei</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>answered HTTP %1: %2</source>
        <translation>返回 HTTP %1：%2</translation>
    </message>
    <message>
        <source>answered HTTP %1</source>
        <translation>返回 HTTP %1</translation>
    </message>
    <message>
        <source>answered HTTP %1: %2: %3</source>
        <translation>返回 HTTP %1：%2：%3</translation>
    </message>
    <message>
        <source>answered HTTP %1: %2: %3 (%4)</source>
        <translation>返回 HTTP %1：%2：%3（%4）</translation>
    </message>
    <message>
        <source>answered HTTP %1: %2: %3 (RequestId %4)</source>
        <translation>返回 HTTP %1：%2：%3（RequestId %4）</translation>
    </message>
    <message>
        <source>not a region index: it has no &quot;regions&quot; object</source>
        <translation>不是地域索引：没有 &quot;regions&quot; 对象</translation>
    </message>
    <message>
        <source>more than 200 pages for one VM size: stopped</source>
        <translation>单个 VM 规格超过 200 页：已停止</translation>
    </message>
    <message>
        <source>not a Retail Prices page: it has no &quot;Items&quot; list</source>
        <translation>不是 Retail Prices 页面：没有 &quot;Items&quot; 列表</translation>
    </message>
    <message>
        <source>more than 200 pages of SKUs: stopped</source>
        <translation>SKU 超过 200 页：已停止</translation>
    </message>
    <message>
        <source>not a SKU list: it has no &quot;skus&quot;</source>
        <translation>不是 SKU 列表：没有 &quot;skus&quot;</translation>
    </message>
    <message>
        <source>not an instance-types answer: it has no &quot;data&quot; object</source>
        <translation>不是 instance-types 应答：没有 &quot;data&quot; 对象</translation>
    </message>
    <message>
        <source>DescribeSpotPriceHistory answer is not XML</source>
        <translation>DescribeSpotPriceHistory 应答不是 XML</translation>
    </message>
    <message>
        <source>DescribeSpotPriceHistory answer has another root element: %1</source>
        <translation>DescribeSpotPriceHistory 应答的根元素不对：%1</translation>
    </message>
    <message>
        <source>more than 100 pages of spot prices: stopped</source>
        <translation>竞价价格超过 100 页：已停止</translation>
    </message>
    <message>
        <source>DescribePrice answer without an instanceType price (PriceInfo.Price.DetailInfos)</source>
        <translation>DescribePrice 应答中没有 instanceType 价格（PriceInfo.Price.DetailInfos）</translation>
    </message>
    <message>
        <source>ListRateOnPeriodDetail answer without official_website_rating_result.official_website_amount</source>
        <translation>ListRateOnPeriodDetail 应答中没有 official_website_rating_result.official_website_amount</translation>
    </message>
    <message>
        <source>InquiryPriceRunInstances answer without Price.InstancePrice.OriginalPrice</source>
        <translation>InquiryPriceRunInstances 应答中没有 Price.InstancePrice.OriginalPrice</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>is a folder, not an offer file</source>
        <translation>是文件夹，不是报价文件</translation>
    </message>
    <message>
        <source>cannot be opened for reading</source>
        <translation>无法打开读取</translation>
    </message>
    <message>
        <source>read error after %1 bytes</source>
        <translation>读取 %1 字节后出错</translation>
    </message>
    <message>
        <source>cancelled after %1 bytes</source>
        <translation>读取 %1 字节后已取消</translation>
    </message>
    <message>
        <source>invalid JSON at byte %1: %2</source>
        <translation>第 %1 字节处 JSON 无效：%2</translation>
    </message>
    <message>
        <source>its terms come before its products; this reader needs the products first (as AWS publishes them)</source>
        <translation>其 terms 位于 products 之前；本读取器要求 products 在前（与 AWS 发布的顺序一致）</translation>
    </message>
    <message>
        <source>not an EC2 offer file: it needs &quot;publicationDate&quot; and &quot;products&quot; at the top (found %1 products)</source>
        <translation>不是 EC2 报价文件：顶层需要 &quot;publicationDate&quot; 和 &quot;products&quot;（找到 %1 个 products）</translation>
    </message>
    <message>
        <source>cannot be created: %1</source>
        <translation>无法创建：%1</translation>
    </message>
    <message>
        <source>cannot be written</source>
        <translation>无法写入</translation>
    </message>
    <message>
        <source>cannot be replaced: %1</source>
        <translation>无法替换：%1</translation>
    </message>
    <message>
        <source>%1 in %2, spot interruption rate (DescribeSpotAdvice; the spot price stays, unranked)</source>
        <translation>%1（%2）的竞价实例中断率（DescribeSpotAdvice；竞价价格保留，但不参与排名）</translation>
    </message>
    <message>
        <source>%1 in %2: Alibaba Cloud publishes no interruption rate for it in %3, the zone of its spot price; that price is shown but not ranked</source>
        <translation>%1（%2）：阿里云未公布其在可用区 %3（该竞价价格所在的可用区）的中断率；该价格照常显示，但不参与排名</translation>
    </message>
</context>
<context>
    <name>ProbeErrors</name>
    <message>
        <source>must be &quot;%1&quot;, found &quot;%2&quot;; this GPU Planner reads the probe it ships, deploy that probe again</source>
        <translation>应为 &quot;%1&quot;，实际为 &quot;%2&quot;；本 GPU Planner 只读取随它发布的探针，请重新部署该探针</translation>
    </message>
    <message>
        <source>required field is missing; this GPU Planner reads the probe it ships, deploy that probe again</source>
        <translation>缺少必填字段；本 GPU Planner 只读取随它发布的探针，请重新部署该探针</translation>
    </message>
    <message>
        <source>required field is null; this GPU Planner reads the probe it ships, deploy that probe again</source>
        <translation>必填字段为 null；本 GPU Planner 只读取随它发布的探针，请重新部署该探针</translation>
    </message>
    <message>
        <source>must be a string, found %1; this GPU Planner reads the probe it ships, deploy that probe again</source>
        <translation>应为字符串，实际为%1；本 GPU Planner 只读取随它发布的探针，请重新部署该探针</translation>
    </message>
    <message>
        <source>must be a whole number, found %1 %2</source>
        <translation>应为整数，实际为%1 %2</translation>
    </message>
    <message>
        <source>must be a whole number, found %1</source>
        <translation>应为整数，实际为 %1</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>应为整数</translation>
    </message>
    <message>
        <source>must be at least %1, found %2</source>
        <translation>应不小于 %1，实际为 %2</translation>
    </message>
    <message>
        <source>is too large: %1</source>
        <translation>过大：%1</translation>
    </message>
    <message>
        <source>must be &quot;quick&quot; or &quot;full&quot;, found &quot;%1&quot;</source>
        <translation>应为 &quot;quick&quot; 或 &quot;full&quot;，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be &quot;TFLOPS&quot; or &quot;GB/s&quot;, found &quot;%1&quot;</source>
        <translation>应为 &quot;TFLOPS&quot; 或 &quot;GB/s&quot;，实际为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>unknown method &quot;%1&quot; (known: %2)</source>
        <translation>未知的方法 &quot;%1&quot;（已知：%2）</translation>
    </message>
    <message>
        <source>must be a fraction from 0 to 1</source>
        <translation>应为 0 到 1 之间的比例</translation>
    </message>
    <message>
        <source>the probe printed nothing; it may have crashed before writing its JSON document, or could not start (check that the binary suits the remote system)</source>
        <translation>探针没有任何输出；它可能在写出 JSON 文档之前崩溃，或者无法启动（请检查该二进制文件是否适用于远程系统）</translation>
    </message>
    <message>
        <source>the probe&apos;s output holds no JSON document (no line starts with &apos;{&apos;); it begins &quot;%1&quot;</source>
        <translation>探针的输出中没有 JSON 文档（没有以 &apos;{&apos; 开头的行）；输出开头为 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>invalid JSON: %1 (the output ends inside the JSON document: truncated, e.g. the probe was killed or the connection dropped; run the probe again)</source>
        <translation>无效的 JSON：%1（输出在 JSON 文档中途结束：已被截断，例如探针被终止或连接中断；请重新运行探针）</translation>
    </message>
    <message>
        <source>the output is %1 bytes, far more than a probe document; not the probe&apos;s output</source>
        <translation>输出有 %1 字节，远大于探针文档；这不是探针的输出</translation>
    </message>
    <message>
        <source>neither a bundled probe nor the probe&apos;s source beside %1 (gpuplan-probe is built where a CUDA compiler is found; the source is in share/gpuplanner/probe-source.tar.gz)</source>
        <translation>%1 旁既没有随附的探针，也没有探针源码（gpuplan-probe 在找到 CUDA 编译器的环境中构建；源码位于 share/gpuplanner/probe-source.tar.gz）</translation>
    </message>
    <message>
        <source>no launch %1 in the ledger (gpuplan instances lists them)</source>
        <translation>账本中没有启动记录 %1（gpuplan instances 会列出它们）</translation>
    </message>
</context>
<context>
    <name>ProviderErrors</name>
    <message>
        <source>this instance type</source>
        <translation>该实例类型</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>no %1 free in %2 now; GPU Planner tries the next zone</source>
        <translation>%2 现在没有空闲的 %1；GPU Planner 会尝试下一个可用区</translation>
    </message>
    <message>
        <source>the chosen zone</source>
        <translation>所选可用区</translation>
    </message>
    <message>
        <source>the account&apos;s on-demand vCPU quota for %1 is used up in %2: request more in the Service Quotas console -&gt; AWS services -&gt; Amazon Elastic Compute Cloud (Amazon EC2) -&gt; &quot;%3&quot; (the quota counts vCPUs; ask for at least the vCPUs of %1)</source>
        <translation>账号在 %2 针对 %1 的按需实例 vCPU 配额已用完：请在 Service Quotas 控制台 -&gt; AWS services -&gt; Amazon Elastic Compute Cloud (Amazon EC2) -&gt; &quot;%3&quot; 申请提高（配额按 vCPU 计；至少申请 %1 的 vCPU 数）</translation>
    </message>
    <message>
        <source>the account&apos;s spot vCPU quota for %1 is used up in %2: request more in the Service Quotas console -&gt; AWS services -&gt; Amazon Elastic Compute Cloud (Amazon EC2) -&gt; &quot;%3&quot; (the quota counts vCPUs; ask for at least the vCPUs of %1)</source>
        <translation>账号在 %2 针对 %1 的竞价实例 vCPU 配额已用完：请在 Service Quotas 控制台 -&gt; AWS services -&gt; Amazon Elastic Compute Cloud (Amazon EC2) -&gt; &quot;%3&quot; 申请提高（配额按 vCPU 计；至少申请 %1 的 vCPU 数）</translation>
    </message>
    <message>
        <source>the credentials lack the IAM permission ec2:%1; add it to the user&apos;s or role&apos;s policy. The encoded message can be decoded with `aws sts decode-authorization-message --encoded-message ...`</source>
        <translation>凭据缺少 IAM 权限 ec2:%1；请将其加入该用户或角色的策略。编码的错误消息可以用 `aws sts decode-authorization-message --encoded-message ...` 解码</translation>
    </message>
    <message>
        <source>AWS refused the access key: check the access key ID and secret in the keychain (and that the key is active in IAM)</source>
        <translation>AWS 拒绝了该访问密钥：请检查钥匙串中的访问密钥 ID 和密钥（并确认该密钥在 IAM 中处于启用状态）</translation>
    </message>
    <message>
        <source>the account is not enabled for this region or service: enable the region under Account -&gt; AWS Regions (opt-in regions), or finish the account&apos;s sign-up</source>
        <translation>账号未开通此地域或服务：请在 Account -&gt; AWS Regions（需选择加入的地域）中启用该地域，或完成账号注册</translation>
    </message>
    <message>
        <source>AWS refused the request&apos;s time: this computer&apos;s clock is off by more than 5 minutes; turn on network time (NTP)</source>
        <translation>AWS 拒绝了请求时间：本机时钟偏差超过 5 分钟；请开启网络时间同步（NTP）</translation>
    </message>
    <message>
        <source>EC2 throttled the account&apos;s API requests; GPU Planner backed off and retried, wait a minute and try again</source>
        <translation>EC2 对账号的 API 请求进行了限流；GPU Planner 已退避并重试，请等一分钟再试</translation>
    </message>
    <message>
        <source>EC2 does not know it (%1)</source>
        <translation>EC2 不认识该资源（%1）</translation>
    </message>
    <message>
        <source>this launch&apos;s client token was already used for a launch with other parameters; EC2 keeps the first one: see `gpuplan instances`, or start a new launch (a new token)</source>
        <translation>本次启动的客户端令牌已被一次参数不同的启动使用过；EC2 以第一次为准：请查看 `gpuplan instances`，或重新发起启动（使用新令牌）</translation>
    </message>
    <message>
        <source>EC2 refused %1 (%2)</source>
        <translation>EC2 拒绝了 %1（%2）</translation>
    </message>
    <message>
        <source>EC2 %1 answered a body that is not XML (%2 at byte %3)</source>
        <translation>EC2 %1 返回的内容不是 XML（%2，位于第 %3 字节）</translation>
    </message>
    <message>
        <source>EC2 %1 answered &lt;%2&gt; where &lt;%3&gt; was expected</source>
        <translation>EC2 %1 返回了 &lt;%2&gt;，而预期是 &lt;%3&gt;</translation>
    </message>
    <message>
        <source>EC2 %1 answered no &lt;%2&gt;</source>
        <translation>EC2 %1 的应答中没有 &lt;%2&gt;</translation>
    </message>
    <message>
        <source>EC2 %1 answered an image without &lt;imageId&gt;</source>
        <translation>EC2 %1 返回了一个没有 &lt;imageId&gt; 的镜像</translation>
    </message>
    <message>
        <source>EC2 %1 answered a key pair without &lt;keyName&gt;</source>
        <translation>EC2 %1 返回了一个没有 &lt;keyName&gt; 的密钥对</translation>
    </message>
    <message>
        <source>EC2 %1 answered a security group without &lt;groupId&gt;</source>
        <translation>EC2 %1 返回了一个没有 &lt;groupId&gt; 的安全组</translation>
    </message>
    <message>
        <source>EC2 %1 answered an instance without &lt;instanceId&gt;</source>
        <translation>EC2 %1 返回了一个没有 &lt;instanceId&gt; 的实例</translation>
    </message>
    <message>
        <source>EC2 %1 answered an offering without &lt;location&gt;</source>
        <translation>EC2 %1 返回了一个没有 &lt;location&gt; 的机型供应</translation>
    </message>
    <message>
        <source>EC2 %1 answered no instance in &lt;instancesSet&gt;</source>
        <translation>EC2 %1 的 &lt;instancesSet&gt; 中没有实例</translation>
    </message>
    <message>
        <source>EC2 %1 answered &lt;return&gt; other than true: the SSH rule was not added</source>
        <translation>EC2 %1 返回的 &lt;return&gt; 不是 true：SSH 规则未添加</translation>
    </message>
    <message>
        <source>EC2 %1 answered HTTP %2 without an EC2 error document</source>
        <translation>EC2 %1 返回了 HTTP %2，但没有 EC2 错误文档</translation>
    </message>
    <message>
        <source>EC2 does not support the subscription feature: it has no monthly rental of an instance; Reserved Instances and Savings Plans are bought separately, for a term, in the console</source>
        <translation>EC2 不支持包月功能：它没有按月租用实例的方式；预留实例和 Savings Plans 需在控制台另行按期限购买</translation>
    </message>
    <message>
        <source>EC2 needs a client token of 1 to 64 printable ASCII characters so that a retried launch never starts a second instance</source>
        <translation>EC2 需要由 1 到 64 个可打印 ASCII 字符组成的客户端令牌，以确保重试启动时不会启动第二台实例</translation>
    </message>
    <message>
        <source>the cloud-init script is %1 bytes once base64-encoded; EC2 takes at most 16384 (16 KB): shorten it or have it download the rest</source>
        <translation>cloud-init 脚本经 base64 编码后为 %1 字节；EC2 最多接受 16384 字节（16 KB）：请缩短脚本，或让它下载其余部分</translation>
    </message>
    <message>
        <source>no HTTP transport given to the AWS provider</source>
        <translation>没有为 AWS 提供方提供 HTTP 传输</translation>
    </message>
    <message>
        <source>no AWS region</source>
        <translation>未指定 AWS 地域</translation>
    </message>
    <message>
        <source>no available AWS image named &quot;%1&quot; in %2; give an image ID instead</source>
        <translation>%2 中没有名为“%1”的可用 AWS 镜像；请改为指定镜像 ID</translation>
    </message>
    <message>
        <source>EC2 answered a dry-run RunInstances as if it had launched; check the instances in the console</source>
        <translation>EC2 对试运行的 RunInstances 的应答像是已经启动了实例；请在控制台检查实例</translation>
    </message>
    <message>
        <source>EC2 does not report this instance</source>
        <translation>EC2 没有报告该实例</translation>
    </message>
    <message>
        <source>%1 (EC2 said: %2)</source>
        <translation>%1（EC2 原话：%2）</translation>
    </message>
    <message>
        <source>%1; request ID %2 (quote it to AWS Support)</source>
        <translation>%1；请求 ID %2（联系 AWS 支持时请提供）</translation>
    </message>
    <message>
        <source>this zone</source>
        <translation>该可用区</translation>
    </message>
    <message>
        <source>Tencent Cloud has no %1 free in %2 right now: try the next zone, or later</source>
        <translation>腾讯云在 %2 暂时没有空闲的 %1：请尝试下一个可用区，或稍后再试</translation>
    </message>
    <message>
        <source>the launch would exceed the account&apos;s quota for %1: see the quotas in the CVM console (https://console.cloud.tencent.com/cvm) and request more by a ticket (https://console.cloud.tencent.com/workorder/category)</source>
        <translation>此次启动将超出账号对 %1 的配额：请在云服务器控制台（https://console.cloud.tencent.com/cvm）查看配额，并提交工单（https://console.cloud.tencent.com/workorder/category）申请提高</translation>
    </message>
    <message>
        <source>the launch would exceed the instance quota of %1 for %2: see the quotas in the CVM console (https://console.cloud.tencent.com/cvm) and request more by a ticket (https://console.cloud.tencent.com/workorder/category)</source>
        <translation>此次启动将超出 %1 针对 %2 的实例配额：请在云服务器控制台（https://console.cloud.tencent.com/cvm）查看配额，并提交工单（https://console.cloud.tencent.com/workorder/category）申请提高</translation>
    </message>
    <message>
        <source>the launch would exceed the spot instance quota for %1: see the quotas in the CVM console (https://console.cloud.tencent.com/cvm) and request more by a ticket (https://console.cloud.tencent.com/workorder/category)</source>
        <translation>此次启动将超出针对 %1 的竞价实例配额：请在云服务器控制台（https://console.cloud.tencent.com/cvm）查看配额，并提交工单（https://console.cloud.tencent.com/workorder/category）申请提高</translation>
    </message>
    <message>
        <source>the launch would exceed the monthly (prepaid) instance quota for %1: see the quotas in the CVM console (https://console.cloud.tencent.com/cvm) and request more by a ticket (https://console.cloud.tencent.com/workorder/category)</source>
        <translation>此次启动将超出针对 %1 的包月（预付费）实例配额：请在云服务器控制台（https://console.cloud.tencent.com/cvm）查看配额，并提交工单（https://console.cloud.tencent.com/workorder/category）申请提高</translation>
    </message>
    <message>
        <source>the key works but may not call %1: grant that action to its CAM user or role (CAM console, https://console.cloud.tencent.com/cam)</source>
        <translation>该密钥有效，但无权调用 %1：请在访问管理控制台（CAM，https://console.cloud.tencent.com/cam）为其 CAM 用户或角色授予该操作</translation>
    </message>
    <message>
        <source>Tencent Cloud refused the request&apos;s time: this computer&apos;s clock is more than 5 minutes off; set it right (NTP) and try again</source>
        <translation>腾讯云拒绝了请求时间：本机时钟偏差超过 5 分钟；请校准时钟（NTP）后重试</translation>
    </message>
    <message>
        <source>Tencent Cloud did not accept the SecretId / SecretKey: check that the key exists, is enabled and was pasted without spaces (API keys: https://console.cloud.tencent.com/cam/capi)</source>
        <translation>腾讯云不接受该 SecretId / SecretKey：请检查密钥是否存在、已启用，且粘贴时没有带空格（API 密钥：https://console.cloud.tencent.com/cam/capi）</translation>
    </message>
    <message>
        <source>Tencent Cloud is limiting the request rate of %1: wait a little and try again</source>
        <translation>腾讯云正在限制 %1 的请求频率：请稍等后重试</translation>
    </message>
    <message>
        <source>Tencent Cloud does not know the resource %1 names</source>
        <translation>腾讯云不认识 %1 所指的资源</translation>
    </message>
    <message>
        <source>Tencent Cloud refused %1</source>
        <translation>腾讯云拒绝了 %1</translation>
    </message>
    <message>
        <source>Tencent Cloud&apos;s answer to %1 lists an instance without InstanceId</source>
        <translation>腾讯云对 %1 的应答列出了一个没有 InstanceId 的实例</translation>
    </message>
    <message>
        <source>Tencent Cloud&apos;s answer to %1 has no instance id</source>
        <translation>腾讯云对 %1 的应答中没有实例 ID</translation>
    </message>
    <message>
        <source>%1 answered without a price for the instance</source>
        <translation>%1 的应答中没有该实例的价格</translation>
    </message>
    <message>
        <source>a launch needs a client token (idempotency)</source>
        <translation>启动需要客户端令牌（幂等）</translation>
    </message>
    <message>
        <source>the client token is longer than CVM&apos;s 64 characters</source>
        <translation>客户端令牌超过了 CVM 的 64 个字符上限</translation>
    </message>
    <message>
        <source>a monthly (PREPAID) launch needs the number of months</source>
        <translation>包月（PREPAID）启动需要指定月数</translation>
    </message>
    <message>
        <source>the cloud-init script is %1 bytes once base64-encoded; CVM accepts at most 16384 (16 KB): shorten it</source>
        <translation>cloud-init 脚本经 base64 编码后为 %1 字节；CVM 最多接受 16384 字节（16 KB）：请缩短脚本</translation>
    </message>
    <message>
        <source>the scheduled terminate time must be more than 5 minutes ahead (CVM&apos;s ActionTimer rule)</source>
        <translation>定时销毁时间必须在 5 分钟以后（CVM 的 ActionTimer 规则）</translation>
    </message>
    <message>
        <source>Tencent Cloud answered HTTP %1 to %2</source>
        <translation>腾讯云对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>Tencent Cloud lists no public Ubuntu image with a GPU driver for %1 in %2: give an image id (a custom or marketplace image with the NVIDIA driver installed)</source>
        <translation>腾讯云在 %2 没有适用于 %1 且带 GPU 驱动的 Ubuntu 公共镜像：请指定镜像 ID（装有 NVIDIA 驱动的自定义镜像或镜像市场镜像）</translation>
    </message>
    <message>
        <source>no zone of %1 sells %2 now (%3): try another region or later</source>
        <translation>%1 现在没有可用区售卖 %2（%3）：请换一个地域或稍后再试</translation>
    </message>
    <message>
        <source>Tencent Cloud does not list this instance (terminated, or never launched)</source>
        <translation>腾讯云没有列出该实例（已销毁，或从未启动）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1; RequestId %2</source>
        <translation>%1；RequestId %2</translation>
    </message>
    <message>
        <source>%1 (Tencent Cloud: %2)</source>
        <translation>%1（腾讯云：%2）</translation>
    </message>
    <message>
        <source>no instance type</source>
        <translation>未指定实例类型</translation>
    </message>
    <message>
        <source>no HTTP transport</source>
        <translation>没有 HTTP 传输</translation>
    </message>
    <message>
        <source>%1 has no public endpoint; give one</source>
        <translation>%1 没有公共端点；请指定一个</translation>
    </message>
    <message>
        <source>%1 answered without a JSON object</source>
        <translation>%1 的应答不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1 lists no image with the GPU driver</source>
        <translation>%1 没有列出带 GPU 驱动的镜像</translation>
    </message>
    <message>
        <source>%1 refused %2 (%3)</source>
        <translation>%1 拒绝了 %2（%3）</translation>
    </message>
    <message>
        <source>%1 refused the API key</source>
        <translation>%1 拒绝了该 API 密钥</translation>
    </message>
    <message>
        <source>%1 answered with something that is not JSON</source>
        <translation>%1 的返回不是 JSON</translation>
    </message>
    <message>
        <source>%1 answered without &quot;%2&quot;</source>
        <translation>%1 的返回缺少字段 &quot;%2&quot;</translation>
    </message>
    <message>
        <source>%1 answered with &quot;%2&quot; that is not a list</source>
        <translation>%1 的返回中 &quot;%2&quot; 不是列表</translation>
    </message>
    <message>
        <source>%1 answered with &quot;%2&quot; = &quot;%3&quot;, which GPU Planner cannot read</source>
        <translation>%1 的返回中 &quot;%2&quot; = &quot;%3&quot;，GPU Planner 无法识别</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <source>FSDP (ZeRO-3)</source>
        <translation>FSDP（ZeRO-3）</translation>
    </message>
    <message>
        <source>data parallel (DDP)</source>
        <translation>数据并行（DDP）</translation>
    </message>
    <message>
        <source>%1 + activation checkpointing</source>
        <translation>%1 + 激活重计算</translation>
    </message>
    <message>
        <source>%1, micro-batch %2</source>
        <translation>%1，micro-batch %2</translation>
    </message>
    <message>
        <source>needs %1 GB per GPU even with %2, %3 GB available</source>
        <translation>即使用 %2，每卡也需要 %1 GB，而只有 %3 GB</translation>
    </message>
    <message>
        <source>%1 × %2 with FSDP</source>
        <translation>%1 × %2 + FSDP</translation>
    </message>
    <message>
        <source>LoRA instead of a full fine-tune</source>
        <translation>改用 LoRA 而不是全量微调</translation>
    </message>
    <message>
        <source>a card of %1 GB or more</source>
        <translation>一张 %1 GB 及以上显存的卡</translation>
    </message>
    <message>
        <source>%1 cards of %2 GB or more</source>
        <translation>%1 张 %2 GB 及以上显存的卡</translation>
    </message>
    <message>
        <source>%1; would fit: %2</source>
        <translation>%1；可以放下的方案：%2</translation>
    </message>
    <message>
        <source>, or </source>
        <translation>，或</translation>
    </message>
    <message>
        <source>the datasheet of %1 gives no peak for %2</source>
        <translation>%1 的官方规格没有给出 %2 峰值算力</translation>
    </message>
    <message>
        <source>no calibration case for %1 training</source>
        <translation>没有 %1 训练的校准数据</translation>
    </message>
    <message>
        <source>the measured GPU &apos;%1&apos; is not in the catalog</source>
        <translation>实测用的 GPU“%1”不在目录里</translation>
    </message>
    <message>
        <source>the workload does not say how many FLOPs a sample takes</source>
        <translation>工作负载没有给出每个样本的计算量（FLOPs）</translation>
    </message>
    <message>
        <source>the only offer that meets every constraint</source>
        <translation>唯一满足全部条件的方案</translation>
    </message>
    <message>
        <source>the cheapest of %1 offers that meet every constraint</source>
        <translation>满足全部条件的 %1 个方案中最便宜的</translation>
    </message>
    <message>
        <source>the fastest of %1 offers that meet every constraint</source>
        <translation>满足全部条件的 %1 个方案中最快的</translation>
    </message>
    <message>
        <source>the best cost × time of %1 offers that meet every constraint</source>
        <translation>满足全部条件的 %1 个方案中性价比（费用 × 时间）最好的</translation>
    </message>
    <message>
        <source>%1; next: %2 %3 at %4, %5</source>
        <translation>%1；其次是 %2 %3，约 %4，%5</translation>
    </message>
    <message>
        <source>spot: %1 % chance of interruption per month, checkpoint every %2; P50 %3, P90 %4 of compute, %5 interruptions expected</source>
        <translation>竞价实例：每月被回收的概率约 %1%，每 %2 存一次检查点；计算时间 P50 %3、P90 %4，预计被中断 %5 次</translation>
    </message>
    <message>
        <source>spot: %1 % chance of interruption per month, checkpoint every %2</source>
        <translation>竞价实例：每月被回收的概率约 %1%，每 %2 存一次检查点</translation>
    </message>
    <message>
        <source>physically isolated (bare metal or dedicated host)</source>
        <translation>物理隔离（裸金属或专属宿主机）</translation>
    </message>
    <message>
        <source>physically isolated (bare metal or dedicated host); compliance: %1</source>
        <translation>物理隔离（裸金属或专属宿主机）；合规认证：%1</translation>
    </message>
    <message>
        <source>documented compliance: %1</source>
        <translation>有公开的合规认证：%1</translation>
    </message>
    <message>
        <source>uses about %1 kWh, %2 kgCO2e on the %3 grid</source>
        <translation>耗电约 %1 kWh，按 %3 电网折合约 %2 kg 二氧化碳当量</translation>
    </message>
    <message>
        <source>uses about %1 kWh (grid carbon intensity of %2 unknown)</source>
        <translation>耗电约 %1 kWh（%2 电网的碳排放强度未知）</translation>
    </message>
    <message>
        <source>costs about %1 (%2 to %3) paying %4</source>
        <translation>约 %1（%2 至 %3），%4</translation>
    </message>
    <message>
        <source>finishes in about %1 (%2 to %3), setup and data upload included</source>
        <translation>约 %1完成（%2 至 %3），已含环境准备和数据上传</translation>
    </message>
    <message>
        <source>%1 to spare before the deadline (but the slow end of the range misses it)</source>
        <translation>比截止时间提前 %1（但按最慢的估计会超期）</translation>
    </message>
    <message>
        <source>%1 to spare before the deadline</source>
        <translation>比截止时间提前 %1</translation>
    </message>
    <message>
        <source>fits in memory: %1 of %2 GB per GPU with %3</source>
        <translation>显存够用：每卡需 %1 GB，单卡显存 %2 GB，方案为%3</translation>
    </message>
    <message>
        <source>memory fit unknown: the workload gives no parameter count</source>
        <translation>无法判断显存是否够用：工作负载没有给出参数量</translation>
    </message>
    <message>
        <source>TPUs train JAX and TensorFlow; %1 needs a GPU</source>
        <translation>TPU 只支持 JAX 和 TensorFlow 训练，%1 需要 GPU</translation>
    </message>
    <message>
        <source>ROCm on %1 supports PyTorch, TensorFlow and JAX, not %2</source>
        <translation>%1 上的 ROCm 支持 PyTorch、TensorFlow 和 JAX，不支持 %2</translation>
    </message>
    <message>
        <source>shared virtual machine: no bare-metal or dedicated-host option and no documented compliance programme, so sensitive data should not go there</source>
        <translation>共享虚拟机：没有裸金属或专属宿主机选项，也没有公开的合规认证，敏感数据不宜放在这里</translation>
    </message>
    <message>
        <source>cannot be estimated: %1</source>
        <translation>无法估算：%1</translation>
    </message>
    <message>
        <source>does not fit in memory on %1 × %2: %3</source>
        <translation>%1 × %2 显存放不下：%3</translation>
    </message>
    <message>
        <source>needs %1 servers; the plan allows one</source>
        <translation>需要 %1 台服务器，而计划只允许单机</translation>
    </message>
    <message>
        <source>needs %1 servers but has no RDMA / InfiniBand / EFA between them: NCCL over plain Ethernet would waste most of the GPU time</source>
        <translation>需要 %1 台服务器，但机器之间没有 RDMA / InfiniBand / EFA：NCCL 走普通以太网，大部分 GPU 时间会白白浪费</translation>
    </message>
    <message>
        <source>no published price in this region</source>
        <translation>该地域没有公开价格</translation>
    </message>
    <message>
        <source>the plan does not consider %1 prices</source>
        <translation>计划未考虑%1</translation>
    </message>
    <message>
        <source>takes about %1, past the deadline of %2</source>
        <translation>约需 %1，超过了截止时间 %2</translation>
    </message>
    <message>
        <source>costs about %1, over the budget of %2</source>
        <translation>约需 %1，超出预算 %2</translation>
    </message>
    <message>
        <source>no published interruption rate for %1 spot: its time and cost would be a guess</source>
        <translation>%1 没有公开竞价实例的回收率，时间和费用只能靠猜</translation>
    </message>
    <message>
        <source>on-demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价实例</translation>
    </message>
    <message>
        <source>reserved 1 year</source>
        <translation>1 年预留实例</translation>
    </message>
    <message>
        <source>reserved 3 years</source>
        <translation>3 年预留实例</translation>
    </message>
    <message>
        <source>monthly subscription</source>
        <translation>包月</translation>
    </message>
    <message>
        <source>yearly subscription</source>
        <translation>包年</translation>
    </message>
    <message>
        <source>same GPU</source>
        <translation>同款 GPU</translation>
    </message>
    <message>
        <source>same architecture</source>
        <translation>同一架构</translation>
    </message>
    <message>
        <source>same model class, other GPUs</source>
        <translation>同类模型、其他 GPU</translation>
    </message>
    <message>
        <source>other model classes</source>
        <translation>其他类型的模型</translation>
    </message>
    <message>
        <source>one calibration case (%1, %2)</source>
        <translation>1 个校准案例（%1，%2）</translation>
    </message>
    <message>
        <source>median of %1 calibration cases (%2, %3)</source>
        <translation>%1 个校准案例的中位数（%2，%3）</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>month</source>
        <translation>月</translation>
    </message>
    <message>
        <source>%1 is in %2, outside the chosen countries (%3)</source>
        <translation>%1 位于 %2，不在所选国家/地区（%3）之内</translation>
    </message>
    <message>
        <source>the catalog does not say which country %1 is in, so it may be outside %2</source>
        <translation>目录没有注明 %1 所在的国家/地区，可能不在 %2 之内</translation>
    </message>
    <message>
        <source>priced in %1, and without a USD-CNY exchange rate it cannot be compared in %2</source>
        <translation>以 %1 计价，缺少美元兑人民币汇率，无法换算成 %2 来比较</translation>
    </message>
    <message>
        <source>no calibration for this accelerator: the calibration set has no published training result for %1 accelerators, and NVIDIA&apos;s would be a guess</source>
        <translation>该加速卡没有校准数据：校准集中没有 %1 加速卡的公开训练结果，套用 NVIDIA 的数据只能是猜测</translation>
    </message>
    <message>
        <source>does not fit in memory: %1</source>
        <translation>显存放不下：%1</translation>
    </message>
    <message>
        <source>this workload on this GPU</source>
        <translation>同一任务、同款 GPU</translation>
    </message>
    <message>
        <source>this kind of model on this GPU</source>
        <translation>同类模型、同款 GPU</translation>
    </message>
    <message>
        <source>this kind of model on this GPU generation</source>
        <translation>同类模型、同代 GPU</translation>
    </message>
    <message>
        <source>the performance model fitted to %1 published results</source>
        <translation>基于 %1 条公开结果拟合的性能模型</translation>
    </message>
    <message>
        <source>%1, corrected by %2 nearby result(s) (%3)</source>
        <translation>%1，并用 %2 条相近结果（%3）修正</translation>
    </message>
    <message>
        <source>%1; your own measurement is among them</source>
        <translation>%1；其中包括你自己的实测数据</translation>
    </message>
    <message>
        <source>billed as %1 of %2 by %3&apos;s minimum and rounding</source>
        <translation>按 %3 的最低计费时长和取整规则，%2 按 %1 计费</translation>
    </message>
    <message>
        <source>%1&apos;s billing rule is not published: %2 is counted as %3, whole hours</source>
        <translation>%1 没有公开计费粒度：%2 按整小时计为 %3</translation>
    </message>
    <message>
        <source>%1; next: %2 %3 at %4 (committing %5 over %6), %7</source>
        <translation>%1；其次是 %2 %3，约 %4（需承诺 %6，共 %5），%7</translation>
    </message>
    <message>
        <source>the project is %1</source>
        <translation>而项目只有 %1</translation>
    </message>
    <message>
        <source>the plan covers this run only</source>
        <translation>而本计划只涵盖这一次运行</translation>
    </message>
    <message>
        <source>costs about %1 (%2 to %3) paying %4, which commits the lab to %5 over %6</source>
        <translation>约 %1（%2 至 %3），%4；这意味着课题组要承诺 %6，共 %5</translation>
    </message>
    <message>
        <source>needs a %1-month commitment (%2); %3</source>
        <translation>需要承诺 %1 个月（%2），%3</translation>
    </message>
    <message>
        <source>a subscription is paid for at least %1; %2</source>
        <translation>包月包年至少按 %1付费，%2</translation>
    </message>
    <message>
        <source>%1 over %2</source>
        <translation>%2共 %1</translation>
    </message>
    <message>
        <source>%1 has no %2 figure: runs as %3</source>
        <translation>%1 没有 %2 性能数据：按 %3 运行</translation>
    </message>
    <message>
        <source>%1&apos;s figures are third-party or derived: its vendor publishes no datasheet</source>
        <translation>%1 的参数来自第三方或推算：厂商没有公开规格书</translation>
    </message>
    <message>
        <source>scaled from the measured %1 %2 on %3 × %4</source>
        <translation>由 %3 × %4 上实测的 %1 %2 换算而来</translation>
    </message>
    <message>
        <source>the high end is held at the best efficiency published for this kind of model</source>
        <translation>上限按同类模型已发表的最高效率封顶</translation>
    </message>
    <message>
        <source>the data set does not fit the instance&apos;s memory and is read from local NVMe every epoch</source>
        <translation>数据集放不进实例内存，每个 epoch 都要从本地 NVMe 重新读取</translation>
    </message>
    <message>
        <source>the data set does not fit the instance&apos;s memory and is read from a network volume every epoch</source>
        <translation>数据集放不进实例内存，每个 epoch 都要从网络云盘重新读取</translation>
    </message>
    <message>
        <source>activation checkpointing recomputes the forward pass: a third more compute</source>
        <translation>激活检查点会重算前向传播：计算量多出约三分之一</translation>
    </message>
    <message>
        <source>also meets the constraints in %1 other region(s)</source>
        <translation>另有 %1 个地域也满足全部约束</translation>
    </message>
    <message>
        <source>no offer meets every constraint; the excluded list says what each one missed</source>
        <translation>没有满足全部约束的报价；排除列表里写明了每个报价差在哪里</translation>
    </message>
    <message>
        <source>storage price unknown for %1: not counted</source>
        <translation>%1 的存储价格未知：未计入</translation>
    </message>
    <message>
        <source>ownership.json lists no server to buy</source>
        <translation>ownership.json 里没有可购买的服务器</translation>
    </message>
    <message>
        <source>none of the servers in ownership.json has an on-demand offer to compare with</source>
        <translation>ownership.json 里的服务器都没有可对比的按量付费报价</translation>
    </message>
    <message>
        <source>managed job on %1, %2</source>
        <translation>%1 托管作业，%2</translation>
    </message>
</context>
<context>
    <name>RecoveryText</name>
    <message>
        <source>the same zone</source>
        <translation>同一可用区</translation>
    </message>
    <message>
        <source>the region&apos;s other zones</source>
        <translation>该地域的其他可用区</translation>
    </message>
    <message>
        <source>another region of the plan</source>
        <translation>方案中的其他地域</translation>
    </message>
    <message>
        <source>another provider of the plan</source>
        <translation>方案中的其他云厂商</translation>
    </message>
    <message>
        <source>%1, on demand: %2</source>
        <translation>%1，按量付费：%2</translation>
    </message>
    <message>
        <source>%1, spot: %2</source>
        <translation>%1，竞价实例：%2</translation>
    </message>
    <message>
        <source>the spot instance was reclaimed: recovering, attempt %1</source>
        <translation>竞价实例已被回收，正在恢复（第 %1 次尝试）</translation>
    </message>
    <message>
        <source>terminating the reclaimed instance, so that it bills nothing more</source>
        <translation>正在释放被回收的实例，避免继续计费</translation>
    </message>
    <message>
        <source>relaunching on %1</source>
        <translation>正在重新创建：%1</translation>
    </message>
    <message>
        <source>%1: not there (%2)</source>
        <translation>%1：不可用（%2）</translation>
    </message>
    <message>
        <source>starting the job again, from the bucket&apos;s newest checkpoint</source>
        <translation>正在从存储桶中最新的检查点重新启动任务</translation>
    </message>
    <message>
        <source>attempt %1 runs: resumed from the bucket&apos;s newest checkpoint</source>
        <translation>第 %1 次尝试已在运行：已从存储桶中最新的检查点恢复</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>reclaimed (notice at %1)</source>
        <translation>已被回收（%1 收到通知）</translation>
    </message>
    <message>
        <source>reclaimed without a notice</source>
        <translation>未收到通知即被回收</translation>
    </message>
    <message>
        <source>; checkpoint in the bucket at %1</source>
        <translation>；%1 检查点已存入存储桶</translation>
    </message>
    <message>
        <source>; no checkpoint reached the bucket</source>
        <translation>；没有检查点存入存储桶</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>never ran</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>the instance is shutting down (%1): checkpointing before %2</source>
        <translation>实例正在关机（%1）：在 %2 之前保存检查点</translation>
    </message>
    <message>
        <source>%1 gave its spot interruption notice at %2: the instance goes at %3; checkpointing</source>
        <translation>%1 在 %2 发出竞价实例中断通知，实例将于 %3 回收；正在保存检查点</translation>
    </message>
    <message>
        <source>1 attempt</source>
        <translation>1 次尝试</translation>
    </message>
    <message>
        <source>%1 attempts</source>
        <translation>%1 次尝试</translation>
    </message>
    <message>
        <source>1 interruption</source>
        <translation>1 次中断</translation>
    </message>
    <message>
        <source>%1 interruptions</source>
        <translation>%1 次中断</translation>
    </message>
    <message>
        <source>cost in several currencies</source>
        <translation>费用涉及多种币种</translation>
    </message>
    <message>
        <source>cost unknown</source>
        <translation>费用未知</translation>
    </message>
    <message>
        <source>(plan P50 %1, P90 %2)</source>
        <translation>（方案 P50 %1，P90 %2）</translation>
    </message>
    <message>
        <source>%1, %2, %3 lost; %4</source>
        <translation>%1，%2，损失 %3；%4</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <source>%1 (%2 – %3)</source>
        <translation>%1（%2 – %3）</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>GPU plan for approval</source>
        <translation>GPU 算力方案（送审稿）</translation>
    </message>
    <message>
        <source>Training run</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <source>Recommended: %1, %2 × %3, about %4</source>
        <translation>推荐方案：%1，%2 × %3，约 %4</translation>
    </message>
    <message>
        <source>Lab / project</source>
        <translation>课题组 / 项目</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>编制人</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Plan computed</source>
        <translation>规划生成时间</translation>
    </message>
    <message>
        <source>Prices as of</source>
        <translation>价格截至</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Made with GPU Planner from the plan file. Every price cites its source and date (section &quot;Assumptions&quot;); figures are estimates with a low and a high bound.</source>
        <translation>本报告由 GPU Planner 根据规划文件生成。每个价格都注明了来源和日期（见“假设条件”一节）；各项数据均为估算值，并给出下限和上限。</translation>
    </message>
    <message>
        <source>No budget was set.</source>
        <translation>未设预算。</translation>
    </message>
    <message>
        <source>No deadline was set.</source>
        <translation>未设截止时间。</translation>
    </message>
    <message>
        <source>Within the budget of %1, even at the high estimate.</source>
        <translation>即使按上限估算，也不超出 %1 的预算。</translation>
    </message>
    <message>
        <source>Meets the deadline of %1, even at the high estimate.</source>
        <translation>即使按上限估算，也能在 %1 的期限内完成。</translation>
    </message>
    <message>
        <source>Within the budget of %1 at the central estimate, over it at the high estimate.</source>
        <translation>按基准估算不超出 %1 的预算，但按上限估算会超支。</translation>
    </message>
    <message>
        <source>Meets the deadline of %1 at the central estimate, misses it at the high estimate.</source>
        <translation>按基准估算能在 %1 的期限内完成，但按上限估算会超期。</translation>
    </message>
    <message>
        <source>Over the budget of %1.</source>
        <translation>超出 %1 的预算。</translation>
    </message>
    <message>
        <source>Misses the deadline of %1.</source>
        <translation>无法在 %1 的期限内完成。</translation>
    </message>
    <message>
        <source>%1, %2 × %3, %4: %5, %6</source>
        <translation>%1，%2 × %3，%4：%5，%6</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>We recommend %1 with %2 × %3, paying %4. It should cost about %5 (%6 to %7) and take about %8 (%9 to %10), setup and data upload included.</source>
        <translation>建议选用 %1，配置 %2 × %3，计费方式为%4。预计费用约 %5（%6 至 %7），耗时约 %8（%9 至 %10），已含环境准备和数据上传。</translation>
    </message>
    <message>
        <source>It ranks first of %1 offers that meet every constraint (%2 were left out), by %3.</source>
        <translation>以%3为目标，该方案在满足全部约束条件的 %1 个方案中排名第一（另有 %2 个方案被排除）。</translation>
    </message>
    <message>
        <source>Recommended</source>
        <translation>推荐方案</translation>
    </message>
    <message>
        <source>Runner-up</source>
        <translation>次选方案</translation>
    </message>
    <message>
        <source>Cheapest</source>
        <translation>最便宜</translation>
    </message>
    <message>
        <source>the recommended one</source>
        <translation>即推荐方案</translation>
    </message>
    <message>
        <source>Fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Deadline</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <source>Why this one</source>
        <translation>推荐理由</translation>
    </message>
    <message>
        <source>lowest cost within the deadline</source>
        <translation>截止时间内成本最低</translation>
    </message>
    <message>
        <source>shortest time within the budget</source>
        <translation>预算内用时最短</translation>
    </message>
    <message>
        <source>the best cost × time</source>
        <translation>成本 × 时间最优</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <source>Model parameters</source>
        <translation>模型参数量</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>训练轮数（epoch）</translation>
    </message>
    <message>
        <source>Work in all</source>
        <translation>总工作量</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Assumptions</source>
        <translation>假设条件</translation>
    </message>
    <message>
        <source>the best each GPU supports (%1 on the recommended one)</source>
        <translation>各 GPU 支持的最佳精度（推荐方案上为 %1）</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Datasheet peak</source>
        <translation>规格书峰值算力</translation>
    </message>
    <message>
        <source>%1 TFLOPS per GPU (dense)</source>
        <translation>每卡 %1 TFLOPS（稠密）</translation>
    </message>
    <message>
        <source>, %1</source>
        <translation>，%1</translation>
    </message>
    <message>
        <source>Efficiency (share of peak)</source>
        <translation>效率（占峰值比例）</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <source>Exchange rate</source>
        <translation>汇率</translation>
    </message>
    <message>
        <source>1 USD = %1 CNY, %2 (%3)</source>
        <translation>1 美元 = %1 元，%2 的汇率（%3）</translation>
    </message>
    <message>
        <source>set by the user</source>
        <translation>用户设置</translation>
    </message>
    <message>
        <source>Electricity price</source>
        <translation>电价</translation>
    </message>
    <message>
        <source>%1 per kWh</source>
        <translation>每千瓦时 %1</translation>
    </message>
    <message>
        <source>unknown (not set in Settings): owning is compared without energy</source>
        <translation>未知（未在“设置”中填写）：自购成本对比未计电费</translation>
    </message>
    <message>
        <source>PUE (owned servers)</source>
        <translation>PUE（自有服务器）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Setup per run</source>
        <translation>单次环境准备时间</translation>
    </message>
    <message>
        <source>Upload bandwidth</source>
        <translation>上传带宽</translation>
    </message>
    <message>
        <source>%1 Mbit/s (%2 to %3)</source>
        <translation>%1 Mbit/s（%2 至 %3）</translation>
    </message>
    <message>
        <source>Checkpoint writes</source>
        <translation>检查点写入速度</translation>
    </message>
    <message>
        <source>%1 GB/s</source>
        <translation>%1 GB/s</translation>
    </message>
    <message>
        <source>Spot simulation</source>
        <translation>竞价实例模拟</translation>
    </message>
    <message>
        <source>%1 Monte Carlo runs</source>
        <translation>蒙特卡洛模拟 %1 次</translation>
    </message>
    <message>
        <source>Sensitive data</source>
        <translation>敏感数据</translation>
    </message>
    <message>
        <source>yes: only isolated or certified offers</source>
        <translation>是：仅限物理隔离或通过合规认证的方案</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Regions allowed</source>
        <translation>允许的国家/地区</translation>
    </message>
    <message>
        <source>Sources of the prices used</source>
        <translation>所用价格的来源</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>方案对比</translation>
    </message>
    <message>
        <source>The %1 best offers in every pricing mode the catalog has for them. Costs include storage and data egress; times include setup and data upload. Ranges run from the low to the high estimate.</source>
        <translation>排名前 %1 的方案，逐一列出目录中它们的全部计费方式。成本包含存储费和数据出口流量费；用时包含环境准备和数据上传。区间从下限估算到上限估算。</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no: %1</source>
        <translation>否：%1</translation>
    </message>
    <message>
        <source>#</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Offer</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Pricing</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <source>Cost (%1)</source>
        <translation>成本（%1）</translation>
    </message>
    <message>
        <source>Eligible</source>
        <translation>是否符合条件</translation>
    </message>
    <message>
        <source>Costs</source>
        <translation>成本分析</translation>
    </message>
    <message>
        <source>The charts of the Costs view, drawn from the same plan.</source>
        <translation>以下为“成本分析”页面中的图表，基于同一份规划绘制。</translation>
    </message>
    <message>
        <source>Risks</source>
        <translation>风险</translation>
    </message>
    <message>
        <source>Spot interruption</source>
        <translation>竞价实例中断</translation>
    </message>
    <message>
        <source>Interruptions are modelled as a Poisson process from the provider&apos;s published monthly interruption rate; the run saves checkpoints at Daly&apos;s optimum interval and restarts from the last one. P90: nine runs in ten finish within this.</source>
        <translation>中断按泊松过程建模，速率取云厂商公布的月度中断率；训练按 Daly 最优间隔保存检查点，中断后从最近一个检查点断点续训。P90：十次训练中有九次能在该值以内完成。</translation>
    </message>
    <message>
        <source>Interrupted per month</source>
        <translation>月中断率</translation>
    </message>
    <message>
        <source>Mean time between</source>
        <translation>平均中断间隔</translation>
    </message>
    <message>
        <source>Checkpoint every</source>
        <translation>检查点间隔</translation>
    </message>
    <message>
        <source>P90 time</source>
        <translation>P90 用时</translation>
    </message>
    <message>
        <source>P90 cost</source>
        <translation>P90 成本</translation>
    </message>
    <message>
        <source>Reserved and subscription commitments</source>
        <translation>预留实例与包年包月的承诺费用</translation>
    </message>
    <message>
        <source>No offer in the comparison binds the lab to a term.</source>
        <translation>对比中没有需要课题组长期绑定的方案。</translation>
    </message>
    <message>
        <source>A reservation or subscription is paid for its whole term, used or not. The commitment is what the term costs; the run cost is the share this run uses.</source>
        <translation>预留实例和包年包月无论是否用满，都要按整个期限付费。承诺费用是整个期限的总费用；本次训练成本是本次训练占用的那一部分。</translation>
    </message>
    <message>
        <source>Term</source>
        <translation>期限</translation>
    </message>
    <message>
        <source>Commitment</source>
        <translation>承诺费用</translation>
    </message>
    <message>
        <source>Run cost</source>
        <translation>本次训练成本</translation>
    </message>
    <message>
        <source>Fits the project</source>
        <translation>与项目周期匹配</translation>
    </message>
    <message>
        <source>Data sensitivity</source>
        <translation>数据敏感性</translation>
    </message>
    <message numerus="yes">
        <source>The data was marked sensitive: %n offer(s) were left out because they are neither physically isolated nor under a compliance programme.</source>
        <translation>
            <numerusform>数据已标记为敏感：有 %n 个方案既无物理隔离、也未通过合规认证，已被排除。</numerusform>
        </translation>
    </message>
    <message>
        <source>Recommended offer: %1</source>
        <translation>推荐方案：%1</translation>
    </message>
    <message>
        <source>The data was not marked sensitive, so offers were not filtered by isolation or compliance. Mark it in the wizard if the data may not leave a certified environment.</source>
        <translation>数据未标记为敏感，因此没有按物理隔离或合规认证筛选方案。如果数据不得离开经过认证的环境，请在规划向导中勾选。</translation>
    </message>
    <message>
        <source>Offers left out</source>
        <translation>被排除的方案</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>排除原因</translation>
    </message>
    <message>
        <source>Offers</source>
        <translation>方案数</translation>
    </message>
    <message>
        <source>the framework does not run there</source>
        <translation>不支持所选框架</translation>
    </message>
    <message>
        <source>not isolated or certified for sensitive data</source>
        <translation>未物理隔离、也未通过合规认证，不适合敏感数据</translation>
    </message>
    <message>
        <source>the model does not fit in GPU memory</source>
        <translation>显存放不下模型</translation>
    </message>
    <message>
        <source>no published price</source>
        <translation>没有公开价格</translation>
    </message>
    <message>
        <source>several servers without RDMA between them</source>
        <translation>多机之间没有 RDMA</translation>
    </message>
    <message>
        <source>misses the deadline</source>
        <translation>赶不上截止时间</translation>
    </message>
    <message>
        <source>over the budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>no pricing mode could be judged</source>
        <translation>没有可评估的计费方式</translation>
    </message>
    <message>
        <source>outside the regions allowed</source>
        <translation>不在允许的国家/地区内</translation>
    </message>
    <message>
        <source>outside the GPU count asked for</source>
        <translation>GPU 数量不在要求范围内</translation>
    </message>
    <message>
        <source>no usable estimate</source>
        <translation>无法给出可用的估算</translation>
    </message>
    <message>
        <source>Buy or rent</source>
        <translation>自购还是租用</translation>
    </message>
    <message>
        <source>The plan does not compare buying with renting.</source>
        <translation>本规划未做自购与租用的对比。</translation>
    </message>
    <message>
        <source>Not compared: %1</source>
        <translation>未做对比：%1</translation>
    </message>
    <message>
        <source>The electricity price is unknown (set it in Settings), so owning is shown without energy: its real cost is higher.</source>
        <translation>电价未知（可在“设置”中填写），因此自购成本未计电费，实际成本会更高。</translation>
    </message>
    <message>
        <source>month %1</source>
        <translation>第 %1 个月</translation>
    </message>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1：%2，%3</translation>
    </message>
    <message>
        <source>Buy</source>
        <translation>自购</translation>
    </message>
    <message>
        <source>Way</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Up front</source>
        <translation>前期投入</translation>
    </message>
    <message>
        <source>Per month</source>
        <translation>每月</translation>
    </message>
    <message>
        <source>Owning is cheaper from</source>
        <translation>自购回本时间</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>GPU verification</source>
        <translation>GPU 验证</translation>
    </message>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%1，%2：%3</translation>
    </message>
    <message>
        <source> (GPU %1)</source>
        <translation>（GPU %1）</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>期望值</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>不通过</translation>
    </message>
    <message>
        <source>not judged</source>
        <translation>未判定</translation>
    </message>
    <message>
        <source>Spend</source>
        <translation>实际花费</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例 ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束时间</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Appendix A: method and formulas</source>
        <translation>附录 A：方法与公式</translation>
    </message>
    <message>
        <source>Spot: interruptions as a Poisson process with mean time between them M = −730 h ÷ ln(1 − p) for a monthly interruption probability p; checkpoint interval by Daly (2006); expected time by Daly&apos;s eq. 13; percentiles from a seeded Monte Carlo simulation.</source>
        <translation>竞价实例：中断按泊松过程建模，月中断概率为 p 时，平均中断间隔 M = −730 h ÷ ln(1 − p)；检查点间隔按 Daly (2006) 的方法确定，期望用时按 Daly 论文式 13 计算；分位数来自固定随机种子的蒙特卡洛模拟。</translation>
    </message>
    <message>
        <source>Reservations and subscriptions are eligible only when the project lasts their whole term; their commitment is the term&apos;s full price.</source>
        <translation>只有项目周期覆盖整个期限时，预留实例和包年包月才纳入考虑；其承诺费用为整个期限的全价。</translation>
    </message>
    <message>
        <source>Buy vs rent: purchase price + maintenance + energy (power × PUE × utilisation × electricity price) per month against renting the same GPUs; break-even is the first month owning has cost less in total.</source>
        <translation>自购与租用：逐月比较自购成本（购置价 + 维保 + 电费，电费 = 功率 × PUE × 利用率 × 电价）与租用同样 GPU 的成本；盈亏平衡点是自购累计成本首次低于租用的月份。</translation>
    </message>
    <message>
        <source>Exchange: one USD/CNY rate with its date for every conversion in the plan.</source>
        <translation>汇率：规划中的所有换算均使用同一个注明日期的 USD/CNY 汇率。</translation>
    </message>
    <message>
        <source>Appendix B: glossary</source>
        <translation>附录 B：术语表</translation>
    </message>
    <message>
        <source>On-demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>pay by the hour, stop any time</source>
        <translation>按小时计费，随时可以停止</translation>
    </message>
    <message>
        <source>Spot / preemptible</source>
        <translation>竞价 / 抢占式实例</translation>
    </message>
    <message>
        <source>spare capacity at a discount that the provider may take back at short notice</source>
        <translation>云厂商折价出售的闲置算力，可能在短时间预警后被回收</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>预留实例</translation>
    </message>
    <message>
        <source>a lower hourly price in exchange for paying a 1- or 3-year term</source>
        <translation>承诺并支付 1 年或 3 年期限，换取更低的小时单价</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>包年包月</translation>
    </message>
    <message>
        <source>monthly or yearly rental of an instance (包年包月)</source>
        <translation>按月或按年租用实例，预先付费</translation>
    </message>
    <message>
        <source>BF16 / FP16 / FP32</source>
        <translation>BF16 / FP16 / FP32</translation>
    </message>
    <message>
        <source>number formats; mixed precision trains in 16 bits with 32-bit master weights</source>
        <translation>数值格式；混合精度训练用 16 位计算，同时保留 32 位主权重</translation>
    </message>
    <message>
        <source>TFLOPS</source>
        <translation>TFLOPS</translation>
    </message>
    <message>
        <source>trillion floating-point operations per second</source>
        <translation>每秒万亿次浮点运算</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>model FLOPs utilisation: useful FLOPs over the GPUs&apos; peak</source>
        <translation>模型算力利用率：有效 FLOPs 与 GPU 峰值算力之比</translation>
    </message>
    <message>
        <source>P90</source>
        <translation>P90</translation>
    </message>
    <message>
        <source>the value nine runs in ten stay within</source>
        <translation>第 90 百分位数：十次训练中有九次不超过该值</translation>
    </message>
    <message>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <source>power usage effectiveness: a data centre&apos;s total power over its IT power</source>
        <translation>电能使用效率：数据中心总用电功率与 IT 设备用电功率之比</translation>
    </message>
    <message>
        <source>RDMA</source>
        <translation>RDMA</translation>
    </message>
    <message>
        <source>direct memory access between servers (InfiniBand, RoCE, EFA)</source>
        <translation>服务器之间的远程直接内存访问（InfiniBand、RoCE、EFA）</translation>
    </message>
    <message>
        <source>Break-even</source>
        <translation>盈亏平衡点</translation>
    </message>
    <message>
        <source>the month from which owning has cost less than renting</source>
        <translation>自购累计成本开始低于租用的月份</translation>
    </message>
    <message>
        <source>GPU plan: %1</source>
        <translation>GPU 算力方案：%1</translation>
    </message>
    <message>
        <source>GPU Planner report</source>
        <translation>GPU Planner 报告</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <source>No ranked offer has a spot price whose interruption rate is published, so no option here depends on spot capacity.</source>
        <translation>参与排名的方案中，没有哪个竞价实例公布了中断率，因此这里的方案都不依赖竞价实例。</translation>
    </message>
    <message>
        <source>No GPU was found; the offer promised %1.</source>
        <translation>未检测到 GPU；该方案标称 %1。</translation>
    </message>
    <message>
        <source>Found %1 × %2 with driver %3; the offer promised %4.</source>
        <translation>检测到 %1 × %2，驱动版本 %3；该方案标称 %4。</translation>
    </message>
    <message>
        <source>; commits the lab to %1</source>
        <translation>；课题组需承诺支出 %1</translation>
    </message>
    <message>
        <source>That cost is this run&apos;s share of the term: paying %1 commits the lab to %2, used or not.</source>
        <translation>这只是本次训练分摊到的费用：选择%1，课题组需承诺支出 %2，用不用都要付。</translation>
    </message>
    <message>
        <source>commits %1</source>
        <translation>需承诺 %1</translation>
    </message>
    <message>
        <source>Throughput of one GPU = 1 ÷ (training FLOPs per unit ÷ (datasheet dense peak × efficiency) + FLOPs ÷ (memory bandwidth × arithmetic intensity)), softly capped by what the software stack (tuned, typical or plain) can feed a GPU. Per sample: about 3 × the forward FLOPs. Per token of a transformer (PaLM, appendix B): 6N + 12·L·h·s for full training, 4N + 8·L·h·s + 6·N_trainable for LoRA. Activation checkpointing, where memory needs it, costs a third more compute.</source>
        <translation>单卡吞吐 = 1 ÷（每单位训练 FLOPs ÷（官方稠密峰值算力 × 效率）+ FLOPs ÷（显存带宽 × 算术强度）），再以软件栈（深度调优、常规或朴素）能喂给 GPU 的速度作为软上限。按样本计：约为前向 FLOPs 的 3 倍。Transformer 按 token 计（PaLM 附录 B）：全量训练 6N + 12·L·h·s，LoRA 为 4N + 8·L·h·s + 6·N_trainable。显存不够而启用激活重计算时，计算量增加三分之一。</translation>
    </message>
    <message>
        <source>Efficiency, intensity and the stack&apos;s factors are fitted to published training results (the calibration set), then corrected by the nearest published cases; the low and high bounds are where the published figure fell 80 % of the time when each source was held out of the fit.</source>
        <translation>效率、算术强度和软件栈系数都拟合自公开的训练结果（校准集），再用最相近的公开案例修正；区间上下限取自交叉验证：把每个来源排除在拟合之外时，公开结果有 80% 落在这样的区间里。</translation>
    </message>
    <message>
        <source>Several GPUs lose the part of the gradient all-reduce (over NVLink, PCIe or the network) that the backward pass does not hide, and a fitted overhead per doubling. Several servers without RDMA are left out unless the plan allows them.</source>
        <translation>多卡训练会损失梯度 all-reduce（经 NVLink、PCIe 或网络）中没能被反向计算掩盖的那部分时间，另外每翻一倍 GPU 数还有一项拟合得到的额外开销。没有 RDMA 的多机方案默认排除，除非计划允许。</translation>
    </message>
    <message>
        <source>Time = setup + data upload at the lab&apos;s bandwidth + work ÷ throughput + a checkpoint every hour (weights and Adam state at 1 GB/s). A data set larger than the instance&apos;s memory is read again every epoch, from local NVMe or a network volume, which can cap the throughput. Cost = billed hours × hourly price (per-second, per-minute or per-hour billing as the provider bills) + storage for the run + egress of the final checkpoint.</source>
        <translation>时间 = 环境准备 + 按课题组带宽上传数据 + 工作量 ÷ 吞吐 + 每小时保存一次检查点（权重和 Adam 状态，按 1 GB/s 写入）。数据集超过实例内存时，每个 epoch 都要从本地 NVMe 或网络云盘重新读取，可能成为吞吐上限。费用 = 计费时长 × 小时单价（按云厂商的计费粒度：按秒、按分钟或按小时）+ 训练期间的存储费 + 最终检查点的流出流量费。</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>未注明日期</translation>
    </message>
    <message>
        <source>As of</source>
        <translation>价格日期</translation>
    </message>
    <message>
        <source>as of %1</source>
        <translation>价格日期 %1</translation>
    </message>
    <message>
        <source>%1 over %2</source>
        <translation>%2共 %1</translation>
    </message>
    <message>
        <source>not within %1</source>
        <translation>%1内无法回本</translation>
    </message>
    <message>
        <source>After %1</source>
        <translation>%1累计</translation>
    </message>
    <message>
        <source>no file was named for the PDF</source>
        <translation>没有指定 PDF 的文件名</translation>
    </message>
    <message>
        <source>cannot write %1: the folder %2 does not exist</source>
        <translation>无法写入 %1：文件夹 %2 不存在</translation>
    </message>
    <message>
        <source>cannot write %1: %2 is not a folder</source>
        <translation>无法写入 %1：%2 不是文件夹</translation>
    </message>
    <message>
        <source>cannot write %1: it is a folder</source>
        <translation>无法写入 %1：这是一个文件夹</translation>
    </message>
    <message>
        <source>cannot write %1: the file cannot be changed (%2)</source>
        <translation>无法写入 %1：该文件不可修改（%2）</translation>
    </message>
    <message>
        <source>cannot write %1: no file can be created in the folder %2 (%3)</source>
        <translation>无法写入 %1：无法在文件夹 %2 中创建文件（%3）</translation>
    </message>
    <message>
        <source>Buying %1 (%2 × %3) against renting the same GPUs for %4 at %5 utilisation. Owning adds maintenance of %6 a year and energy at PUE %7; the server is written off over %8.</source>
        <translation>对比自购 %1（%2 × %3）与租用同样的 GPU，周期 %4，利用率 %5。自购另计每年 %6 的维保费用，以及按 PUE %7 计算的电费；服务器按 %8 折旧。</translation>
    </message>
    <message>
        <source>cannot write the PDF</source>
        <translation>无法写入 PDF</translation>
    </message>
    <message>
        <source>the export was cancelled</source>
        <translation>导出已取消</translation>
    </message>
    <message>
        <source>cannot finish the PDF</source>
        <translation>无法完成 PDF</translation>
    </message>
    <message>
        <source>Runs: plan against actual</source>
        <translation>训练运行：计划与实际对比</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>%1 (%2–%3)</source>
        <translation>%1（%2–%3）</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>%1 (%2 %3)</source>
        <translation>%1（%2 %3）</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Time planned</source>
        <translation>计划时长</translation>
    </message>
    <message>
        <source>Time taken</source>
        <translation>实际用时</translation>
    </message>
    <message>
        <source>Speed planned</source>
        <translation>计划速度</translation>
    </message>
    <message>
        <source>Speed measured</source>
        <translation>实测速度</translation>
    </message>
    <message>
        <source>Cost planned</source>
        <translation>计划费用</translation>
    </message>
    <message>
        <source>GPU use</source>
        <translation>GPU 利用率</translation>
    </message>
</context>
<context>
    <name>RunErrors</name>
    <message>
        <source>the regular expression &quot;%1&quot; does not compile (%2): write it in ECMAScript syntax, with the number in its first group, e.g. ([0-9.]+) samples/s</source>
        <translation>正则表达式“%1”无法编译（%2）：请按 ECMAScript 语法书写，并把数字放在第一个分组中，例如 ([0-9.]+) samples/s</translation>
    </message>
    <message>
        <source>the regular expression &quot;%1&quot; has no group: put the number in parentheses, e.g. ([0-9.]+) samples/s</source>
        <translation>正则表达式“%1”没有分组：请用括号把数字括起来，例如 ([0-9.]+) samples/s</translation>
    </message>
    <message>
        <source>unknown log preset &quot;%1&quot;: choose lightning, hf_trainer, timm, ultralytics or custom</source>
        <translation>未知的日志预设“%1”：请选择 lightning、hf_trainer、timm、ultralytics 或 custom</translation>
    </message>
    <message>
        <source>unknown unit &quot;%1&quot;: the number counts samples, tokens or steps</source>
        <translation>未知的单位“%1”：数字只能表示样本（samples）、token（tokens）或步（steps）</translation>
    </message>
    <message>
        <source>the working directory is not a folder: choose the folder that holds the training code</source>
        <translation>工作目录不是一个文件夹：请选择存放训练代码的文件夹</translation>
    </message>
    <message>
        <source>cannot list this folder (%1): give yourself read permission, or exclude it</source>
        <translation>无法列出此文件夹的内容（%1）：请给自己读取权限，或将其排除</translation>
    </message>
    <message>
        <source>cannot read this .gitignore (%1): give yourself read permission</source>
        <translation>无法读取此 .gitignore（%1）：请给自己读取权限</translation>
    </message>
    <message>
        <source>no training command: say what runs on the instance, e.g. python train.py</source>
        <translation>没有训练命令：请写明在实例上运行什么，例如 python train.py</translation>
    </message>
    <message>
        <source>the working directory %1 is not a folder here</source>
        <translation>工作目录 %1 在本机上不是文件夹</translation>
    </message>
    <message>
        <source>the dataset %1 is neither a folder here nor an object storage URL (s3://, cos://, oss://, obs://, gs://, az://)</source>
        <translation>数据集 %1 既不是本机文件夹，也不是对象存储地址（s3://、cos://、oss://、obs://、gs://、az://）</translation>
    </message>
    <message>
        <source>%1: unknown object storage &quot;%2&quot; (s3, cos, oss, obs, gs or az)</source>
        <translation>%1：不认识的对象存储“%2”（支持 s3、cos、oss、obs、gs、az）</translation>
    </message>
    <message>
        <source>an empty result path: name a file or folder of the working directory</source>
        <translation>结果路径为空：请填写工作目录中的文件或文件夹</translation>
    </message>
    <message>
        <source>%1 climbs out of the working directory: give a path inside it, or an absolute one</source>
        <translation>%1 跳出了工作目录：请填写工作目录内的路径，或使用绝对路径</translation>
    </message>
    <message>
        <source>the run settings are not a JSON object</source>
        <translation>运行设置不是 JSON 对象</translation>
    </message>
    <message>
        <source>the run setting &quot;%1&quot; must be a %2</source>
        <translation>运行设置“%1”应为 %2</translation>
    </message>
    <message>
        <source>the run&apos;s login (user, host, port) is not readable: start the run again</source>
        <translation>无法读取该运行的登录信息（用户、主机、端口）：请重新启动运行</translation>
    </message>
    <message>
        <source>cannot read GPU Planner&apos;s run helper (resources/scripts/gpuplan-run.sh): reinstall GPU Planner</source>
        <translation>无法读取 GPU Planner 的运行辅助脚本（resources/scripts/gpuplan-run.sh）：请重新安装 GPU Planner</translation>
    </message>
    <message>
        <source>cannot learn the home folder on the instance: %1</source>
        <translation>无法获取实例上的主目录：%1</translation>
    </message>
    <message>
        <source>cannot make the run&apos;s folders on the instance (is the disk full?): %1</source>
        <translation>无法在实例上创建运行目录（磁盘满了吗？）：%1</translation>
    </message>
    <message>
        <source>the job did not start on the instance: %1</source>
        <translation>作业没能在实例上启动：%1</translation>
    </message>
    <message>
        <source>cannot read the run&apos;s state on the instance: %1</source>
        <translation>无法读取实例上的运行状态：%1</translation>
    </message>
    <message>
        <source>the instance answered something other than GPU Planner&apos;s run helper (%1 unreadable): %2</source>
        <translation>实例返回的不是 GPU Planner 运行辅助脚本的输出（无法读取 %1）：%2</translation>
    </message>
    <message>
        <source>the job could not be stopped, even with SIGKILL: %1</source>
        <translation>作业无法停止，连 SIGKILL 也不行：%1</translation>
    </message>
    <message>
        <source>cannot list the results on the instance: %1</source>
        <translation>无法列出实例上的结果文件：%1</translation>
    </message>
    <message>
        <source>cannot write the checksums (SHA256SUMS) beside the results</source>
        <translation>无法在结果旁写入校验和文件（SHA256SUMS）</translation>
    </message>
    <message>
        <source>cannot write a temporary file here (is /tmp full?)</source>
        <translation>无法在本机写入临时文件（/tmp 满了吗？）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>cannot start %1 on this computer</source>
        <translation>无法在本机启动 %1</translation>
    </message>
    <message>
        <source>rsync cannot go through a jump host</source>
        <translation>rsync 无法经由跳板机传输</translation>
    </message>
    <message>
        <source>this computer has no rsync or ssh</source>
        <translation>本机没有 rsync 或 ssh</translation>
    </message>
    <message>
        <source>the instance has no rsync</source>
        <translation>实例上没有 rsync</translation>
    </message>
    <message>
        <source>%1: choose SFTP, or automatic</source>
        <translation>%1：请改用 SFTP 或自动选择</translation>
    </message>
    <message>
        <source>rsync failed (exit %1): %2</source>
        <translation>rsync 失败（退出码 %1）：%2</translation>
    </message>
    <message>
        <source>this run has no TensorBoard folder: set one (e.g. runs or lightning_logs) before it starts</source>
        <translation>该运行没有设置 TensorBoard 日志目录：请在启动前设置（例如 runs 或 lightning_logs）</translation>
    </message>
    <message>
        <source>TensorBoard is not installed on the instance: add pip install tensorboard to the setup commands (%1)</source>
        <translation>实例上没有安装 TensorBoard：请在准备命令中加入 pip install tensorboard（%1）</translation>
    </message>
    <message>
        <source>TensorBoard was started but does not answer after a minute: see tensorboard.log in the run&apos;s folder on the instance</source>
        <translation>TensorBoard 已启动，但一分钟后仍无响应：请查看实例上运行目录中的 tensorboard.log</translation>
    </message>
    <message>
        <source>spot handling needs a bucket for the checkpoints (s3://, gs://, oss://, cos://, obs:// or az://): a reclaimed instance takes its disk with it</source>
        <translation>竞价实例保护需要一个存放检查点的存储桶（s3://、gs://、oss://、cos://、obs:// 或 az://）：实例被回收时磁盘也会一起释放</translation>
    </message>
    <message>
        <source>the checkpoint folder &quot;%1&quot; must be a folder inside the working directory, e.g. checkpoints</source>
        <translation>检查点目录“%1”必须位于工作目录之内，例如 checkpoints</translation>
    </message>
    <message>
        <source>unknown signal &quot;%1&quot;: choose USR1, USR2, INT, TERM or HUP</source>
        <translation>未知信号“%1”：请选择 USR1、USR2、INT、TERM 或 HUP</translation>
    </message>
    <message>
        <source>the recovery&apos;s counts are out of range: at least one attempt and at most 50, no negative interval or limit</source>
        <translation>恢复设置的数值超出范围：尝试次数须在 1 到 50 之间，间隔和上限不能为负</translation>
    </message>
    <message>
        <source>the starter script&apos;s setting %1 cannot be &quot;%2&quot;</source>
        <translation>入门训练脚本的设置 %1 不能为“%2”</translation>
    </message>
    <message>
        <source>the starter script&apos;s template has a placeholder {{%1}} that this version does not fill: reinstall GPU Planner</source>
        <translation>入门训练脚本模板含有本版本无法填写的占位符 {{%1}}：请重新安装 GPU Planner</translation>
    </message>
    <message>
        <source>the starter script&apos;s template lacks the placeholder {{%1}}: it is not this version&apos;s; reinstall GPU Planner</source>
        <translation>入门训练脚本模板缺少占位符 {{%1}}，不是本版本的模板：请重新安装 GPU Planner</translation>
    </message>
    <message>
        <source>run %1 was not started to recover from interruptions (--recover)</source>
        <translation>运行 %1 启动时未开启中断恢复（--recover）</translation>
    </message>
    <message>
        <source>run %1 has ended: there is nothing to recover</source>
        <translation>运行 %1 已结束，无需恢复</translation>
    </message>
    <message>
        <source>run %1 is not on an instance GPU Planner launched: it cannot be relaunched (start it with --instance)</source>
        <translation>运行 %1 所在的实例不是 GPU Planner 创建的，无法重新创建（请用 --instance 启动）</translation>
    </message>
    <message>
        <source>the recovery lacks the catalog, the network or the stored keys: start it again</source>
        <translation>恢复缺少目录、网络或已保存的密钥：请重新开始</translation>
    </message>
    <message>
        <source>the run was reclaimed on each of its %1 instances: it stops here, interrupted; its checkpoints stay in the bucket (gpuplan run --attach RUN resumes it)</source>
        <translation>这次运行的 %1 个实例都被回收了，运行到此中断；检查点仍保存在存储桶中（gpuplan run --attach RUN 可继续）</translation>
    </message>
    <message>
        <source>no place in the plan&apos;s fallback order had capacity (%1): the run is interrupted, its checkpoints stay in the bucket; gpuplan run --attach RUN tries again</source>
        <translation>方案的备选顺序中没有一处有余量（%1）：运行已中断，检查点仍保存在存储桶中；gpuplan run --attach RUN 会再试一次</translation>
    </message>
    <message>
        <source>the recovery was cancelled: gpuplan run --attach RUN takes it up again</source>
        <translation>恢复已取消：gpuplan run --attach RUN 可以接着恢复</translation>
    </message>
    <message>
        <source>GPU Planner does not know the login user of %1&apos;s image: the run cannot move there</source>
        <translation>GPU Planner 不知道 %1 镜像的登录用户，运行无法迁移过去</translation>
    </message>
</context>
<context>
    <name>RunText</name>
    <message>
        <source>the GPU is idle: nothing is running on it, so its clocks drop</source>
        <translation>GPU 处于空闲：上面没有任务在跑，所以时钟频率降了下来</translation>
    </message>
    <message>
        <source>the clocks are held at the application clocks someone set (nvidia-smi -ac)</source>
        <translation>时钟被固定在有人设置的应用时钟上（nvidia-smi -ac）</translation>
    </message>
    <message>
        <source>the GPU is at its power limit: the driver lowers the clocks to stay under it</source>
        <translation>GPU 已达到功耗上限：驱动降低时钟频率以保持在上限之内</translation>
    </message>
    <message>
        <source>hardware slowdown: the clocks are cut by half or more (too hot, or the power supply asked for it); tell the provider if it lasts</source>
        <translation>硬件降频：时钟频率被降低一半或更多（温度过高，或电源要求降频）；如果持续出现，请告知云厂商</translation>
    </message>
    <message>
        <source>the clocks follow the slowest GPU of a sync boost group</source>
        <translation>时钟频率跟随同步加速（sync boost）组中最慢的那块 GPU</translation>
    </message>
    <message>
        <source>the GPU is too hot and slows down: the machine&apos;s cooling is not keeping up; tell the provider if it lasts</source>
        <translation>GPU 温度过高而降频：机器的散热跟不上；如果持续出现，请告知云厂商</translation>
    </message>
    <message>
        <source>the power brake is engaged (the power supply asked for it): the clocks are cut by half or more; tell the provider</source>
        <translation>功率制动已启用（电源要求降频）：时钟频率被降低一半或更多；请告知云厂商</translation>
    </message>
    <message>
        <source>the clocks are limited by the display clock setting</source>
        <translation>时钟频率受显示时钟设置限制</translation>
    </message>
    <message>
        <source>the driver reports a reason this version of GPU Planner does not know</source>
        <translation>驱动报告了一个本版本 GPU Planner 不认识的原因</translation>
    </message>
    <message>
        <source>The GPUs are busy only %1 % of the time while the CPUs are %2 % busy: the data loading cannot keep up. Use more DataLoader workers (num_workers), pin_memory=True and persistent_workers=True, decode on the GPU with NVIDIA DALI, or read from a faster disk (local NVMe instead of network storage).</source>
        <translation>GPU 只有 %1 % 的时间在忙，而 CPU 占用达到 %2 %：数据加载跟不上。请增加 DataLoader 的 worker 数（num_workers），设置 pin_memory=True 和 persistent_workers=True，用 NVIDIA DALI 在 GPU 上解码，或改从更快的磁盘读取（用本地 NVMe 而不是网络存储）。</translation>
    </message>
    <message>
        <source>The GPUs are busy only %1 % of the time and use %2 % of their memory: the batch is probably too small to fill them. Raise the batch size, or keep it and accumulate gradients over several steps.</source>
        <translation>GPU 只有 %1 % 的时间在忙，显存只用了 %2 %：batch 可能太小，喂不饱 GPU。请增大 batch size，或者保持不变，改用多步梯度累积。</translation>
    </message>
    <message>
        <source>Each GPU moves %1 MB/s over PCIe: copies between host and GPU take the time. Keep the data on the GPU between steps, and copy from pinned memory with non_blocking=True.</source>
        <translation>每块 GPU 通过 PCIe 传输 %1 MB/s：时间花在了主机与 GPU 之间的拷贝上。请在各步之间把数据留在 GPU 上，并从锁页内存（pinned memory）以 non_blocking=True 拷贝。</translation>
    </message>
    <message>
        <source>The run trains in %1: the tensor cores stay mostly unused. Use mixed precision (torch.autocast with a GradScaler, or bf16 where the GPU has it).</source>
        <translation>本次训练使用 %1：张量核心（Tensor Core）基本闲置。请使用混合精度（torch.autocast 配合 GradScaler，或在 GPU 支持时用 bf16）。</translation>
    </message>
    <message>
        <source>The GPUs are busy only %1 % of the time, and neither the CPUs, the GPU memory nor PCIe explain it: profile a few steps (torch.profiler) to see where the time goes.</source>
        <translation>GPU 只有 %1 % 的时间在忙，而 CPU、显存和 PCIe 都解释不了原因：请用 torch.profiler 剖析几步，看时间花在哪里。</translation>
    </message>
    <message>
        <source>line %1 of the GPU samples does not read and was skipped: %2</source>
        <translation>GPU 采样数据第 %1 行无法解析，已跳过：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1 to send (.gitignore honoured)</source>
        <translation>
            <numerusform>共 %n 个文件，需发送 %1（已按 .gitignore 排除）</numerusform>
        </translation>
    </message>
    <message>
        <source>sending with rsync over SSH (only what changed)</source>
        <translation>通过 SSH 用 rsync 发送（只传有变化的部分）</translation>
    </message>
    <message>
        <source>rsync cannot use the jump host</source>
        <translation>rsync 无法使用跳板机</translation>
    </message>
    <message>
        <source>this computer has no rsync</source>
        <translation>本机没有 rsync</translation>
    </message>
    <message>
        <source>the instance has no rsync</source>
        <translation>实例上没有 rsync</translation>
    </message>
    <message>
        <source>rsync&apos;s ssh could not log in without asking</source>
        <translation>rsync 调用的 ssh 无法免交互登录</translation>
    </message>
    <message>
        <source>as chosen</source>
        <translation>按所选方式</translation>
    </message>
    <message>
        <source>sending over SFTP: %1</source>
        <translation>通过 SFTP 发送：%1</translation>
    </message>
    <message>
        <source>the job runs under %1 in %2 on the instance, and goes on if the connection drops</source>
        <translation>作业已在实例上由 %1 托管运行（目录 %2），断线后仍会继续</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed (exit %1)</source>
        <translation>失败（退出码 %1）</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>lost: the instance no longer knows it</source>
        <translation>失联：实例上已找不到该运行</translation>
    </message>
    <message>
        <source>the dataset&apos;s bucket is in %1 and the instance in %2: the cloud bills the transfer between regions per GB (GPU Planner has no sourced price for it, so it is not in the plan) and it is slower; copy the data to a bucket in %2 first</source>
        <translation>数据集的存储桶在 %1，而实例在 %2：跨地域传输由云厂商按 GB 计费（GPU Planner 没有该价格的可靠来源，所以没有计入规划），而且更慢；建议先把数据复制到 %2 的存储桶</translation>
    </message>
    <message>
        <source>the checkpoint bucket is in %1 and the instance in %2: every checkpoint sync crosses regions, which the cloud bills per GB; a bucket in %2 avoids it</source>
        <translation>检查点存储桶在 %1，实例在 %2：每次同步检查点都会跨地域传输，云厂商按 GB 收费；换用 %2 的存储桶即可避免</translation>
    </message>
    <message>
        <source>recovering: its spot instance was reclaimed</source>
        <translation>恢复中：竞价实例已被回收</translation>
    </message>
    <message>
        <source>interrupted: its spot instance was reclaimed</source>
        <translation>已中断：竞价实例已被回收</translation>
    </message>
</context>
<context>
    <name>SecretErrors</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>unknown field &quot;%1&quot; for %2 (its fields: %3)</source>
        <translation>%2 没有字段“%1”（其字段：%3）</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>cannot turn core dumps off: %1</source>
        <translation>无法关闭核心转储：%1</translation>
    </message>
    <message>
        <source>cannot mark the process as not dumpable: %1</source>
        <translation>无法将进程标记为不可转储：%1</translation>
    </message>
    <message>
        <source>unknown provider &quot;%1&quot;; known: %2</source>
        <translation>未知的云厂商“%1”；已知：%2</translation>
    </message>
    <message>
        <source>is not a field of %1 credentials</source>
        <translation>不是 %1 凭据的字段</translation>
    </message>
    <message>
        <source>missing: %1 credentials need %2</source>
        <translation>缺少：%1 凭据需要 %2</translation>
    </message>
    <message>
        <source>missing the provider</source>
        <translation>缺少云厂商</translation>
    </message>
    <message>
        <source>missing the fields object</source>
        <translation>缺少 fields 对象</translation>
    </message>
    <message>
        <source>not a JSON document</source>
        <translation>不是 JSON 文档</translation>
    </message>
    <message>
        <source>must be a JSON object of field names to strings</source>
        <translation>必须是字段名到字符串的 JSON 对象</translation>
    </message>
    <message>
        <source>not a JSON key file</source>
        <translation>不是 JSON 密钥文件</translation>
    </message>
    <message>
        <source>not a service-account key (its &quot;type&quot; must be &quot;service_account&quot;; create one under IAM &gt; Service accounts &gt; Keys)</source>
        <translation>不是服务账号密钥（其 &quot;type&quot; 必须为 &quot;service_account&quot;；请在 IAM &gt; 服务账号 &gt; 密钥 下创建）</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺少</translation>
    </message>
    <message>
        <source>a %1 credential cannot sign for this provider</source>
        <translation>%1 凭据不能为该云厂商签名</translation>
    </message>
    <message>
        <source>the %1 credential has no %2: set it again with gpuplan creds set %1</source>
        <translation>%1 凭据没有 %2：请用 gpuplan creds set %1 重新设置</translation>
    </message>
    <message>
        <source>scrypt key derivation failed (out of memory?)</source>
        <translation>scrypt 密钥派生失败（内存不足？）</translation>
    </message>
    <message>
        <source>decrypted, but the content is not a credentials list</source>
        <translation>已解密，但内容不是凭据列表</translation>
    </message>
    <message>
        <source>no encrypted credentials file here yet</source>
        <translation>这里还没有加密凭据文件</translation>
    </message>
    <message>
        <source>cannot open it: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>cannot read it: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>not a GPU Planner credentials file</source>
        <translation>不是 GPU Planner 凭据文件</translation>
    </message>
    <message>
        <source>truncated: %1 bytes, fewer than the %2 of an empty store</source>
        <translation>已截断：%1 字节，少于空存储的 %2 字节</translation>
    </message>
    <message>
        <source>format %1 was written by another version of GPU Planner; this one reads format 1</source>
        <translation>格式 %1 由其他版本的 GPU Planner 写入；本版本读取格式 1</translation>
    </message>
    <message>
        <source>unknown key derivation or cipher in the header</source>
        <translation>文件头中的密钥派生算法或加密算法未知</translation>
    </message>
    <message>
        <source>the header&apos;s scrypt cost is out of bounds: the file was changed</source>
        <translation>文件头中的 scrypt 开销超出范围：文件已被改动</translation>
    </message>
    <message>
        <source>no passphrase given</source>
        <translation>未提供口令</translation>
    </message>
    <message>
        <source>wrong passphrase for the encrypted credentials file (or its header was changed)</source>
        <translation>加密凭据文件的口令错误（或其文件头已被改动）</translation>
    </message>
    <message>
        <source>the file was changed, damaged or truncated after it was written (it does not authenticate); restore it from a backup, or delete it and set the credentials again</source>
        <translation>文件在写入后被改动、损坏或截断（认证失败）；请从备份恢复，或删除它并重新设置凭据</translation>
    </message>
    <message>
        <source>the passphrase must not be empty</source>
        <translation>口令不能为空</translation>
    </message>
    <message>
        <source>no random bytes from the system</source>
        <translation>无法从系统获取随机字节</translation>
    </message>
    <message>
        <source>AES-256-GCM encryption failed</source>
        <translation>AES-256-GCM 加密失败</translation>
    </message>
    <message>
        <source>no place for the encrypted credentials file (neither XDG_DATA_HOME nor HOME is set)</source>
        <translation>没有存放加密凭据文件的位置（XDG_DATA_HOME 和 HOME 均未设置）</translation>
    </message>
    <message>
        <source>no passphrase given for the encrypted credentials file</source>
        <translation>未提供加密凭据文件的口令</translation>
    </message>
    <message>
        <source>no credential is stored</source>
        <translation>没有存储凭据</translation>
    </message>
    <message>
        <source>no credential is stored in %1</source>
        <translation>%1 中没有存储凭据</translation>
    </message>
    <message>
        <source>no credential is stored in the keychain</source>
        <translation>钥匙串中没有存储凭据</translation>
    </message>
    <message>
        <source>unknown provider</source>
        <translation>未知的云厂商</translation>
    </message>
    <message>
        <source>stored in the keychain, but the older copy in the encrypted file could not be removed</source>
        <translation>已存入钥匙串，但无法删除加密文件中的旧副本</translation>
    </message>
    <message>
        <source>the keychain is not available: %1</source>
        <translation>钥匙串不可用：%1</translation>
    </message>
    <message>
        <source>the keychain refused to store it: %1</source>
        <translation>钥匙串拒绝存储：%1</translation>
    </message>
    <message>
        <source>the keychain refused to give it: %1</source>
        <translation>钥匙串拒绝提供：%1</translation>
    </message>
    <message>
        <source>the keychain refused to look it up: %1</source>
        <translation>钥匙串拒绝查找：%1</translation>
    </message>
    <message>
        <source>the keychain refused to remove it: %1</source>
        <translation>钥匙串拒绝删除：%1</translation>
    </message>
    <message>
        <source>the keychain&apos;s entry is not a GPU Planner credential (%1)</source>
        <translation>钥匙串中的条目不是 GPU Planner 凭据（%1）</translation>
    </message>
    <message>
        <source>the keychain&apos;s entry belongs to %1</source>
        <translation>钥匙串中的条目属于 %1</translation>
    </message>
</context>
<context>
    <name>SpendCharts</name>
    <message>
        <source>Spent (%1)</source>
        <translation>花费（%1）</translation>
    </message>
    <message>
        <source>No plan</source>
        <translation>无计划</translation>
    </message>
    <message>
        <source>Spending by month: nothing spent yet</source>
        <translation>按月花费：尚无花费</translation>
    </message>
    <message>
        <source>Spending by month</source>
        <translation>按月花费</translation>
    </message>
    <message>
        <source>Spending by provider: nothing spent yet</source>
        <translation>按云厂商花费：尚无花费</translation>
    </message>
    <message>
        <source>Spending by provider</source>
        <translation>按云厂商花费</translation>
    </message>
    <message>
        <source>Spent</source>
        <translation>已花费</translation>
    </message>
    <message>
        <source>Spending by plan: nothing spent yet</source>
        <translation>按计划花费：尚无花费</translation>
    </message>
    <message>
        <source>Spending by plan against its budget</source>
        <translation>各计划花费与预算对比</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
</context>
<context>
    <name>SshErrors</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1; expected USER@HOST or USER@HOST:PORT, e.g. ubuntu@203.0.113.7:22</source>
        <translation>%1；应为 USER@HOST 或 USER@HOST:PORT，例如 ubuntu@203.0.113.7:22</translation>
    </message>
    <message>
        <source>%1 (or an alias of the SSH configuration)</source>
        <translation>%1（或 SSH 配置中的别名）</translation>
    </message>
    <message>
        <source>the key %1</source>
        <translation>密钥 %1</translation>
    </message>
    <message>
        <source>the keys of ssh-agent and ~/.ssh</source>
        <translation>ssh-agent 和 ~/.ssh 中的密钥</translation>
    </message>
    <message>
        <source>the keys in ~/.ssh (no ssh-agent: SSH_AUTH_SOCK is not set)</source>
        <translation>~/.ssh 中的密钥（没有 ssh-agent：未设置 SSH_AUTH_SOCK）</translation>
    </message>
    <message>
        <source>the server offers: %1</source>
        <translation>服务器支持的认证方式：%1</translation>
    </message>
    <message>
        <source>no such directory</source>
        <translation>目录不存在</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>failure (disk full? a directory?)</source>
        <translation>失败（磁盘已满？或目标是目录？）</translation>
    </message>
    <message>
        <source>another key</source>
        <translation>另一个密钥</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>空内容</translation>
    </message>
    <message>
        <source>the machine&apos;s facts (OS, driver, GPUs) could not be read: the detection command printed %1 and exited with status %2</source>
        <translation>无法读取机器信息（操作系统、驱动、GPU）：检测命令输出了 %1，退出状态为 %2</translation>
    </message>
    <message>
        <source>making %1 failed with exit status %2</source>
        <translation>创建 %1 失败，退出状态为 %2</translation>
    </message>
    <message>
        <source>putting the probe in place failed with exit status %1</source>
        <translation>放置探针程序失败，退出状态为 %1</translation>
    </message>
    <message>
        <source>unpacking the probe&apos;s source failed with exit status %1</source>
        <translation>解压探针源码失败，退出状态为 %1</translation>
    </message>
    <message>
        <source>building the probe with %1 failed with exit status %2</source>
        <translation>用 %1 编译探针失败，退出状态为 %2</translation>
    </message>
    <message>
        <source>the probe printed nothing and exited with status %1</source>
        <translation>探针没有任何输出，退出状态为 %1</translation>
    </message>
    <message>
        <source>jump host %1</source>
        <translation>跳板机 %1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>no user name before &apos;@&apos;</source>
        <translation>&apos;@&apos; 前没有用户名</translation>
    </message>
    <message>
        <source>&apos;[&apos; without &apos;]&apos;</source>
        <translation>&apos;[&apos; 缺少对应的 &apos;]&apos;</translation>
    </message>
    <message>
        <source>unexpected text after &apos;]&apos;</source>
        <translation>&apos;]&apos; 后有多余的内容</translation>
    </message>
    <message>
        <source>empty port</source>
        <translation>端口为空</translation>
    </message>
    <message>
        <source>no host name after &apos;@&apos;</source>
        <translation>&apos;@&apos; 后没有主机名</translation>
    </message>
    <message>
        <source>the host name contains &apos;%1&apos;</source>
        <translation>主机名中含有 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>the port &apos;%1&apos; is not a number from 1 to 65535</source>
        <translation>端口 &apos;%1&apos; 不是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>an SSH target needs a user and a host</source>
        <translation>SSH 目标需要用户名和主机</translation>
    </message>
    <message>
        <source>the port is not from 1 to 65535</source>
        <translation>端口不在 1 到 65535 之间</translation>
    </message>
    <message>
        <source>no user name: write USER@HOST, or set User for this host in the SSH configuration</source>
        <translation>没有用户名：请写成 USER@HOST，或在 SSH 配置中为该主机设置 User</translation>
    </message>
    <message>
        <source>cannot read the SSH configuration</source>
        <translation>无法读取 SSH 配置</translation>
    </message>
    <message>
        <source>Port &apos;%1&apos; in the SSH configuration is not a number from 1 to 65535</source>
        <translation>SSH 配置中的 Port &apos;%1&apos; 不是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>the SSH configuration&apos;s Include goes more than %1 deep</source>
        <translation>SSH 配置的 Include 嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>the jump host %1 could not open a connection to %2 port %3 (%4); does it allow TCP forwarding?</source>
        <translation>跳板机 %1 无法连接到 %2 的端口 %3（%4）；它是否允许 TCP 转发？</translation>
    </message>
    <message>
        <source>socketpair failed: %1</source>
        <translation>socketpair 失败：%1</translation>
    </message>
    <message>
        <source>libssh could not create a session (out of memory?)</source>
        <translation>libssh 无法创建会话（内存不足？）</translation>
    </message>
    <message>
        <source>libssh refused an option</source>
        <translation>libssh 拒绝了一个选项</translation>
    </message>
    <message>
        <source>could not connect to %1 port %2</source>
        <translation>无法连接到 %1 的端口 %2</translation>
    </message>
    <message>
        <source>the server sent no host key</source>
        <translation>服务器没有发送主机密钥</translation>
    </message>
    <message>
        <source>WARNING: the host key of %1 has changed: %2 has %3, the server now shows %4 %5. This is a possible man-in-the-middle attack, or the server was reinstalled. Connection refused. If you know why the key changed, remove the old key with ssh-keygen -R &apos;%1&apos; -f %2 and connect again.</source>
        <translation>警告：%1 的主机密钥已变更：%2 中记录的是 %3，而服务器现在出示的是 %4 %5。这可能是中间人攻击，也可能是服务器重装了系统。已拒绝连接。如果你清楚密钥变更的原因，请用 ssh-keygen -R &apos;%1&apos; -f %2 删除旧密钥后重新连接。</translation>
    </message>
    <message>
        <source>the host key of %1 (%2 %3) is not in %4 and nobody was asked to trust it</source>
        <translation>%1 的主机密钥（%2 %3）不在 %4 中，且没有询问任何人是否信任它</translation>
    </message>
    <message>
        <source>the host key of %1 (%2 %3) was not trusted</source>
        <translation>%1 的主机密钥（%2 %3）未被信任</translation>
    </message>
    <message>
        <source>could not add the host key to %1</source>
        <translation>无法将主机密钥添加到 %1</translation>
    </message>
    <message>
        <source>could not check the host key against %1</source>
        <translation>无法对照 %1 检查主机密钥</translation>
    </message>
    <message>
        <source>the connection failed during login</source>
        <translation>登录过程中连接失败</translation>
    </message>
    <message>
        <source>the server does not accept public keys for %1; %2</source>
        <translation>服务器不接受 %1 的公钥认证；%2</translation>
    </message>
    <message>
        <source>the identity file does not exist or cannot be read</source>
        <translation>身份密钥文件不存在或无法读取</translation>
    </message>
    <message>
        <source>wrong or no passphrase for the identity file</source>
        <translation>身份密钥文件的口令错误或未提供</translation>
    </message>
    <message>
        <source>the identity file is not a private key libssh can read</source>
        <translation>身份密钥文件不是 libssh 能读取的私钥</translation>
    </message>
    <message>
        <source>the server wants a second authentication step after %1, which is not supported; %2</source>
        <translation>服务器要求在 %1 之后进行第二步认证，目前不支持；%2</translation>
    </message>
    <message>
        <source>the server refused %1 for user %2; %3. Is the public key in ~%2/.ssh/authorized_keys?</source>
        <translation>服务器拒绝了用户 %2 的%1；%3。公钥是否已加入 ~%2/.ssh/authorized_keys？</translation>
    </message>
    <message>
        <source>the connection failed during login with %1</source>
        <translation>使用 %1 登录时连接失败</translation>
    </message>
    <message>
        <source>the connection to %1 was lost before the command started</source>
        <translation>命令开始前与 %1 的连接已断开</translation>
    </message>
    <message>
        <source>the connection to %1 was lost while running the command</source>
        <translation>运行命令时与 %1 的连接已断开</translation>
    </message>
    <message>
        <source>the connection to %1 was lost before the command&apos;s exit status came</source>
        <translation>收到命令的退出状态前与 %1 的连接已断开</translation>
    </message>
    <message>
        <source>could not open a channel</source>
        <translation>无法打开通道</translation>
    </message>
    <message>
        <source>the server refused to run the command</source>
        <translation>服务器拒绝运行该命令</translation>
    </message>
    <message>
        <source>cancelled while running the command</source>
        <translation>运行命令时已取消</translation>
    </message>
    <message>
        <source>the command sent more than %1 MiB of output; it was stopped and its output dropped</source>
        <translation>命令输出超过 %1 MiB；已终止该命令并丢弃其输出</translation>
    </message>
    <message>
        <source>the command did not finish within %1 ms</source>
        <translation>命令未在 %1 毫秒内完成</translation>
    </message>
    <message>
        <source>the command ended without an exit status (killed by a signal?)</source>
        <translation>命令结束时没有退出状态（被信号终止？）</translation>
    </message>
    <message>
        <source>cannot read the file</source>
        <translation>无法读取该文件</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>reading the file failed</source>
        <translation>读取文件失败</translation>
    </message>
    <message>
        <source>the server has no SFTP subsystem or refused it</source>
        <translation>服务器没有 SFTP 子系统或拒绝了它</translation>
    </message>
    <message>
        <source>cannot create the remote file: %1</source>
        <translation>无法创建远程文件：%1</translation>
    </message>
    <message>
        <source>writing the remote file failed: %1</source>
        <translation>写入远程文件失败：%1</translation>
    </message>
    <message>
        <source>closing the remote file failed: %1</source>
        <translation>关闭远程文件失败：%1</translation>
    </message>
    <message>
        <source>setting the file mode failed: %1</source>
        <translation>设置文件权限失败：%1</translation>
    </message>
    <message>
        <source>could not check the uploaded file: sha256sum exited with %1: %2</source>
        <translation>无法校验已上传的文件：sha256sum 退出状态为 %1：%2</translation>
    </message>
    <message>
        <source>the uploaded file differs from the local one: SHA-256 %1 here, %2 on the server</source>
        <translation>已上传的文件与本地文件不一致：本地 SHA-256 为 %1，服务器上为 %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>a file to upload has no remote path</source>
        <translation>有一个要上传的文件没有指定远程路径</translation>
    </message>
    <message>
        <source>the remote path %1 names a folder, not a file</source>
        <translation>远程路径 %1 指向的是文件夹，不是文件</translation>
    </message>
    <message>
        <source>the remote path %1 holds a carriage return or NUL character, which sha256sum cannot check; rename the file</source>
        <translation>远程路径 %1 含有回车符或 NUL 字符，sha256sum 无法校验；请给文件改名</translation>
    </message>
    <message>
        <source>%1 exists on the server but is not a folder</source>
        <translation>服务器上已有 %1，但它不是文件夹</translation>
    </message>
    <message>
        <source>cannot make the remote folder %1: %2</source>
        <translation>无法创建远程文件夹 %1：%2</translation>
    </message>
    <message>
        <source>%1 differs on the server from the local file after the upload (and %2 more files do); upload again</source>
        <translation>上传后服务器上的 %1 与本地文件不一致（另有 %2 个文件也不一致）；请重新上传</translation>
    </message>
    <message>
        <source>%1 differs on the server from the local file after the upload; upload again</source>
        <translation>上传后服务器上的 %1 与本地文件不一致；请重新上传</translation>
    </message>
    <message>
        <source>cannot make the folder to download into</source>
        <translation>无法创建下载目标文件夹</translation>
    </message>
    <message>
        <source>there is no file %1 on the server</source>
        <translation>服务器上没有文件 %1</translation>
    </message>
    <message>
        <source>%1 on the server is a folder, not a file</source>
        <translation>服务器上的 %1 是文件夹，不是文件</translation>
    </message>
    <message>
        <source>cannot open the remote file: %1</source>
        <translation>无法打开远程文件：%1</translation>
    </message>
    <message>
        <source>reading the remote file failed: %1</source>
        <translation>读取远程文件失败：%1</translation>
    </message>
    <message>
        <source>cannot write the file</source>
        <translation>无法写入该文件</translation>
    </message>
    <message>
        <source>writing the file failed (disk full?)</source>
        <translation>写入文件失败（磁盘满了？）</translation>
    </message>
    <message>
        <source>could not check the downloaded file: sha256sum on the server exited with %1: %2</source>
        <translation>无法校验下载的文件：服务器上的 sha256sum 退出码为 %1：%2</translation>
    </message>
    <message>
        <source>the downloaded copy of %1 differs from the file on the server (SHA-256 %2 here, %3 there); the partial download was deleted, download again</source>
        <translation>下载的 %1 与服务器上的文件不一致（本地 SHA-256 为 %2，服务器上为 %3）；未完成的下载已删除，请重新下载</translation>
    </message>
    <message>
        <source>cannot put the downloaded file in place</source>
        <translation>无法把下载好的文件放到目标位置</translation>
    </message>
    <message>
        <source>cannot listen on local port %1</source>
        <translation>无法监听本地端口 %1</translation>
    </message>
    <message>
        <source>the server could not connect to %1 port %2: is the program there running and listening on that port?</source>
        <translation>服务器无法连接到 %1 的 %2 端口：那边的程序是否已启动并在监听该端口？</translation>
    </message>
    <message>
        <source>the SSH connection that carries the forward to %1 port %2 was lost; open it again</source>
        <translation>承载到 %1 端口 %2 转发的 SSH 连接已断开；请重新打开</translation>
    </message>
</context>
<context>
    <name>SshQuestions</name>
    <message>
        <source>Unknown host key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>This is the first connection to %1. Its %2 key fingerprint is:

%3

Compare it with the one the provider&apos;s console shows for the instance. Trust it and add it to known_hosts?</source>
        <translation>这是第一次连接 %1。它的 %2 密钥指纹是：

%3

请和云厂商控制台上该实例显示的指纹核对。确认信任并写入 known_hosts 吗？</translation>
    </message>
    <message>
        <source>Key passphrase</source>
        <translation>私钥口令</translation>
    </message>
    <message>
        <source>The passphrase of %1:</source>
        <translation>%1 的口令：</translation>
    </message>
</context>
<context>
    <name>VerdictText</name>
    <message>
        <source>%1; %2</source>
        <translation>%1；%2</translation>
    </message>
    <message>
        <source>No NVIDIA driver was found on the instance (libcuda.so.1 could not be loaded). Install the NVIDIA driver, or launch an image that has it (the provider&apos;s GPU image): 580 or newer runs either build of the probe, %1 or newer runs its CUDA 11.8 build.</source>
        <translation>实例上没有找到 NVIDIA 驱动（无法加载 libcuda.so.1）。请安装 NVIDIA 驱动，或改用自带驱动的镜像（云厂商的 GPU 镜像）：驱动 580 及以上可运行两个版本的探针，%1 及以上可运行 CUDA 11.8 版探针。</translation>
    </message>
    <message>
        <source>The driver (CUDA %1) is new enough for this probe build (CUDA %2).</source>
        <translation>驱动（CUDA %1）足够新，可以运行这一版探针（CUDA %2）。</translation>
    </message>
    <message>
        <source>The driver %1 (CUDA %2) is new enough for this probe build (CUDA %3).</source>
        <translation>驱动 %1（CUDA %2）足够新，可以运行这一版探针（CUDA %3）。</translation>
    </message>
    <message>
        <source>The driver supports CUDA up to %1, older than this probe build&apos;s CUDA %2, which needs driver %3 or newer. The CUDA 11.8 build of the probe runs on drivers from %4 on (and on V100); the deploy step picks that build when the remote driver is older than R580, so deploy the probe again and let it choose, or update the driver to 580 or newer.</source>
        <translation>驱动最高只支持 CUDA %1，低于这一版探针所用的 CUDA %2（需要驱动 %3 及以上）。CUDA 11.8 版探针可在 %4 及以上的驱动上运行（也支持 V100）；远程驱动低于 R580 时，部署步骤会自动选用该版本，因此请重新部署探针、让它自行选择，或将驱动升级到 580 及以上。</translation>
    </message>
    <message>
        <source>The driver %1 supports CUDA up to %2, older than this probe build&apos;s CUDA %3, which needs driver %4 or newer. The CUDA 11.8 build of the probe runs on drivers from %5 on (and on V100); the deploy step picks that build when the remote driver is older than R580, so deploy the probe again and let it choose, or update the driver to 580 or newer.</source>
        <translation>驱动 %1 最高只支持 CUDA %2，低于这一版探针所用的 CUDA %3（需要驱动 %4 及以上）。CUDA 11.8 版探针可在 %5 及以上的驱动上运行（也支持 V100）；远程驱动低于 R580 时，部署步骤会自动选用该版本，因此请重新部署探针、让它自行选择，或将驱动升级到 580 及以上。</translation>
    </message>
    <message>
        <source>The driver supports CUDA up to %1, older than this probe build&apos;s CUDA %2, which needs driver %3 or newer. No older build of the probe exists: update the driver to %4 or newer (the provider&apos;s current GPU image has one).</source>
        <translation>驱动最高只支持 CUDA %1，低于这一版探针所用的 CUDA %2（需要驱动 %3 及以上）。探针没有更早的版本可用：请将驱动升级到 %4 及以上（云厂商当前的 GPU 镜像自带这样的驱动）。</translation>
    </message>
    <message>
        <source>The driver %1 supports CUDA up to %2, older than this probe build&apos;s CUDA %3, which needs driver %4 or newer. No older build of the probe exists: update the driver to %5 or newer (the provider&apos;s current GPU image has one).</source>
        <translation>驱动 %1 最高只支持 CUDA %2，低于这一版探针所用的 CUDA %3（需要驱动 %4 及以上）。探针没有更早的版本可用：请将驱动升级到 %5 及以上（云厂商当前的 GPU 镜像自带这样的驱动）。</translation>
    </message>
    <message>
        <source>NVML (libnvidia-ml.so.1) could not be used, so the GPU names, memory health, temperature, power and PCIe link could not be read; the speed tests still ran. The driver&apos;s NVML library is missing (a partial driver install, or a container without the driver&apos;s utilities).</source>
        <translation>无法使用 NVML（libnvidia-ml.so.1），因此读取不到 GPU 名称、显存健康状态、温度、功耗和 PCIe 链路；速度测试仍照常运行。驱动的 NVML 库缺失（驱动没有装全，或容器里没有驱动的工具组件）。</translation>
    </message>
    <message>
        <source>%1 The probe said: %2</source>
        <translation>%1探针输出：%2</translation>
    </message>
    <message>
        <source>The probe found no CUDA GPU on the instance, but the offer promised %1 × %2. Check that `nvidia-smi` lists the GPUs and that CUDA_VISIBLE_DEVICES does not hide them; if the provider attached none, terminate the instance so that it stops costing money, and take it up with the provider.</source>
        <translation>探针在实例上没有找到 CUDA GPU，但该方案标称 %1 × %2。请检查 `nvidia-smi` 能否列出 GPU，以及 CUDA_VISIBLE_DEVICES 是否把它们屏蔽了；如果云厂商根本没有挂载 GPU，请销毁实例以免继续计费，并向云厂商反映。</translation>
    </message>
    <message>
        <source>The probe refused the command line GPU Planner gave it (%1). This is a GPU Planner bug; please report it with this message.</source>
        <translation>探针拒绝了 GPU Planner 传给它的命令行参数（%1）。这是 GPU Planner 的 bug，请附上这条信息反馈。</translation>
    </message>
    <message>
        <source>The probe failed (%1): %2. Run it again; if it fails the same way, report it with the probe&apos;s output.</source>
        <translation>探针运行失败（%1）：%2。请重新运行；如果仍以同样的方式失败，请附上探针的输出反馈问题。</translation>
    </message>
    <message>
        <source>The probe says not every GPU could be measured but gives no reason; run it again.</source>
        <translation>探针报告并非所有 GPU 都测量成功，却没有给出原因；请重新运行。</translation>
    </message>
    <message>
        <source>This GPU could not be measured (%1): %2. A GPU that fails its tests is not usable; run the probe again, and if it fails the same way terminate the instance.</source>
        <translation>该 GPU 无法完成测量（%1）：%2。测试不通过的 GPU 不能用；请重新运行探针，如果仍以同样的方式失败，请销毁实例。</translation>
    </message>
    <message>
        <source>The probe found %1 GPU(s); the offer promised %2. You pay for GPUs that are not there.</source>
        <translation>探针只找到 %1 块 GPU，而该方案标称 %2 块。你在为不存在的 GPU 付费。</translation>
    </message>
    <message>
        <source>The probe found %1 GPUs, more than the %2 promised: check that this is the instance type you launched.</source>
        <translation>探针找到 %1 块 GPU，比标称的 %2 块多：请确认这是你启动的实例规格。</translation>
    </message>
    <message>
        <source>The probe found the %1 promised GPU(s).</source>
        <translation>探针找到了标称的 %1 块 GPU。</translation>
    </message>
    <message>
        <source>The promised GPU &apos;%1&apos; is not in the GPU catalog, so the probe&apos;s GPU cannot be checked against it.</source>
        <translation>标称的 GPU“%1”不在 GPU 目录中，因此无法据此核对探针检测到的 GPU。</translation>
    </message>
    <message>
        <source>%1 is the promised GPU (%2).</source>
        <translation>%1 正是标称的 GPU（%2）。</translation>
    </message>
    <message>
        <source>This GPU reports itself as %1 (%2 in the catalog), not the promised %3: you are not getting what you pay for. Terminate the instance or take it up with the provider.</source>
        <translation>该 GPU 报告的型号是 %1（目录中对应 %2），不是标称的 %3：你没有拿到付费购买的硬件。请销毁实例或向云厂商反映。</translation>
    </message>
    <message>
        <source>%1 is not a name the catalog knows; it looks like a variant of the promised %2 but that cannot be confirmed.</source>
        <translation>目录中没有 %1 这个名称；它看起来是标称的 %2 的某个变体，但无法确认。</translation>
    </message>
    <message>
        <source>%1 is not a GPU the catalog knows, and not the promised %2.</source>
        <translation>%1 不是目录中已知的 GPU，也不是标称的 %2。</translation>
    </message>
    <message>
        <source>No memory size was promised to compare with.</source>
        <translation>方案没有标称显存容量，无从比较。</translation>
    </message>
    <message>
        <source>This GPU has %1 GiB, as promised (%2 GB).</source>
        <translation>该 GPU 显存为 %1 GiB，与标称一致（%2 GB）。</translation>
    </message>
    <message>
        <source>This GPU has only %1 GiB; the offer promised %2 GB per GPU.</source>
        <translation>该 GPU 显存只有 %1 GiB；该方案标称每块 GPU %2 GB。</translation>
    </message>
    <message>
        <source>The probe did not report the GEMM check.</source>
        <translation>探针没有报告 GEMM 正确性检查的结果。</translation>
    </message>
    <message>
        <source>The GEMM results are right and repeat exactly.</source>
        <translation>GEMM 结果正确，且重复计算逐位一致。</translation>
    </message>
    <message>
        <source>the same GEMM twice gave different bits</source>
        <translation>同一个 GEMM 算两次，结果按位不一致</translation>
    </message>
    <message>
        <source>%1 NaN results</source>
        <translation>%1 个 NaN 结果</translation>
    </message>
    <message>
        <source>the relative error against the FP32 reference is not a finite number</source>
        <translation>相对 FP32 参考结果的误差不是有限值</translation>
    </message>
    <message>
        <source>relative error %1 against the FP32 reference, over the %2 allowed</source>
        <translation>相对 FP32 参考结果的误差为 %1，超过允许的 %2</translation>
    </message>
    <message>
        <source>the probe marked the check failed</source>
        <translation>探针将该检查标记为失败</translation>
    </message>
    <message>
        <source>This GPU computes wrong results: %1. A GPU that gives wrong results fails whatever its speed: do not train on it; terminate the instance and report the GPU (%2) to the provider.</source>
        <translation>该 GPU 计算结果错误：%1。算错结果的 GPU 无论速度多快都判为不合格：不要在上面训练；请销毁实例，并将该 GPU（%2）报告给云厂商。</translation>
    </message>
    <message>
        <source>This GPU computes wrong results: %1. A GPU that gives wrong results fails whatever its speed: do not train on it; terminate the instance and report the GPU to the provider.</source>
        <translation>该 GPU 计算结果错误：%1。算错结果的 GPU 无论速度多快都判为不合格：不要在上面训练；请销毁实例，并将该 GPU 报告给云厂商。</translation>
    </message>
    <message>
        <source>FP32 FMA</source>
        <translation>FP32 FMA</translation>
    </message>
    <message>
        <source>FP16 tensor GEMM</source>
        <translation>FP16 张量核心 GEMM</translation>
    </message>
    <message>
        <source>BF16 tensor GEMM</source>
        <translation>BF16 张量核心 GEMM</translation>
    </message>
    <message>
        <source>TF32 tensor GEMM</source>
        <translation>TF32 张量核心 GEMM</translation>
    </message>
    <message>
        <source>FP8 tensor GEMM</source>
        <translation>FP8 张量核心 GEMM</translation>
    </message>
    <message>
        <source>FP16 WMMA kernel</source>
        <translation>FP16 WMMA 内核</translation>
    </message>
    <message>
        <source>memory copy</source>
        <translation>显存拷贝</translation>
    </message>
    <message>
        <source>memory triad</source>
        <translation>显存 Triad</translation>
    </message>
    <message>
        <source>host-to-device copy</source>
        <translation>主机到设备拷贝</translation>
    </message>
    <message>
        <source>device-to-host copy</source>
        <translation>设备到主机拷贝</translation>
    </message>
    <message>
        <source>peer-to-peer copy</source>
        <translation>GPU 间点对点拷贝</translation>
    </message>
    <message>
        <source>70-75 W (power-capped)</source>
        <translation>70-75 W（功耗受限）</translation>
    </message>
    <message>
        <source>GeForce, against the FP32-accumulate peak</source>
        <translation>GeForce，相对 FP32 累加峰值</translation>
    </message>
    <message>
        <source>GDDR &gt;= 150 W</source>
        <translation>GDDR，≥ 150 W</translation>
    </message>
    <message>
        <source>DRAM copy/triad, HBM</source>
        <translation>显存 copy/triad，HBM</translation>
    </message>
    <message>
        <source>DRAM copy/triad, GDDR</source>
        <translation>显存 copy/triad，GDDR</translation>
    </message>
    <message>
        <source>H2D/D2H pinned, against the negotiated link</source>
        <translation>H2D/D2H 锁页内存拷贝，相对协商链路</translation>
    </message>
    <message>
        <source>the %1 GB/s of its PCIe link</source>
        <translation>其 PCIe 链路带宽 %1 GB/s</translation>
    </message>
    <message>
        <source>the %1 %2 datasheet peak</source>
        <translation>规格书峰值 %1 %2</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3, %4 of %5 (healthy from %6 for %7).</source>
        <translation>“%1”测试达到 %2 %3，为%5 的 %4 倍（按“%7”标准，健康下限为 %6 倍）。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3, %4 of %5, under the failing %6 for %7: it is much slower than it should be (throttled, shared or faulty).</source>
        <translation>“%1”测试达到 %2 %3，为%5 的 %4 倍，低于“%7”标准的不合格线 %6 倍：比应有的速度慢得多（被降频、与他人共享或有故障）。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3, %4 of %5, below the healthy %6 for %7 but above the failing %8.</source>
        <translation>“%1”测试达到 %2 %3，为%5 的 %4 倍，低于“%7”标准的健康下限 %6 倍，但高于不合格线 %8 倍。</translation>
    </message>
    <message>
        <source>The %1 test did not run: %2.</source>
        <translation>“%1”测试没有运行：%2。</translation>
    </message>
    <message>
        <source>The %1 test gave no finite figure; not judged.</source>
        <translation>“%1”测试没有得出有限的数值，不作判定。</translation>
    </message>
    <message>
        <source>The probe reported a test this GPU Planner does not know (%1); not judged.</source>
        <translation>探针报告了这一版 GPU Planner 不认识的测试（%1），不作判定。</translation>
    </message>
    <message>
        <source>The %1 test ran on a MIG slice; its share of the whole GPU&apos;s peak is not judged.</source>
        <translation>“%1”测试运行在 MIG 切片上，不按整卡峰值的占比判定。</translation>
    </message>
    <message>
        <source>The %1 test reported %2 where %3 was expected; not judged.</source>
        <translation>“%1”测试报告的单位是 %2，而预期是 %3，不作判定。</translation>
    </message>
    <message>
        <source>The %1 test reported %2, not the unit expected for it; not judged.</source>
        <translation>“%1”测试报告的单位是 %2，不是该测试预期的单位，不作判定。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3; the PCIe link it ran on is not known, so it is not judged.</source>
        <translation>“%1”测试达到 %2 %3；所用的 PCIe 链路未知，不作判定。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3; the catalog has no datasheet peak for it on the %4, so its share is unknown and it is not judged.</source>
        <translation>“%1”测试达到 %2 %3；目录中没有 %4 在这项测试上的规格书峰值，无法算出占比，不作判定。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3, %4 of the %5 %3 datasheet peak; no healthy range is published for it, so it is not judged.</source>
        <translation>“%1”测试达到 %2 %3，为规格书峰值 %5 %3 的 %4 倍；该项没有公开的健康范围，不作判定。</translation>
    </message>
    <message>
        <source>The GPU reports no ECC state (GeForce cards have no ECC).</source>
        <translation>该 GPU 没有报告 ECC 状态（GeForce 显卡没有 ECC）。</translation>
    </message>
    <message>
        <source>This GPU had %1 uncorrectable ECC error(s) since the driver loaded: its memory is faulty and programs on it can crash or compute garbage. Terminate the instance and report the GPU.</source>
        <translation>自驱动加载以来，该 GPU 出现了 %1 次不可纠正的 ECC 错误：显存有故障，上面的程序可能崩溃或算出错误结果。请销毁实例并报告该 GPU。</translation>
    </message>
    <message>
        <source>ECC is off on this GPU: memory errors go unnoticed and cannot be counted.</source>
        <translation>该 GPU 关闭了 ECC：显存错误不会被发现，也无法计数。</translation>
    </message>
    <message>
        <source>This GPU has had %1 uncorrectable ECC error(s) in its lifetime, none since the driver loaded.</source>
        <translation>该 GPU 累计出现过 %1 次不可纠正的 ECC 错误，但自驱动加载以来没有再出现。</translation>
    </message>
    <message>
        <source>No uncorrectable ECC errors.</source>
        <translation>没有不可纠正的 ECC 错误。</translation>
    </message>
    <message>
        <source>This GPU has memory pages waiting to be retired: it needs a reset before its memory can be trusted. Terminate the instance or ask the provider to reset the GPU.</source>
        <translation>该 GPU 有待退役的显存页：需要重置 GPU 后显存才可信。请销毁实例，或请云厂商重置该 GPU。</translation>
    </message>
    <message>
        <source>No page retirement is pending.</source>
        <translation>没有待退役的显存页。</translation>
    </message>
    <message>
        <source>This GPU ran out of spare memory rows (row remapping failed): its memory is faulty. Terminate the instance and report the GPU.</source>
        <translation>该 GPU 的备用显存行已耗尽（行重映射失败）：显存有故障。请销毁实例并报告该 GPU。</translation>
    </message>
    <message>
        <source>This GPU has a row remap pending: it needs a reset before its memory can be trusted. Terminate the instance or ask the provider to reset the GPU.</source>
        <translation>该 GPU 有待生效的行重映射：需要重置 GPU 后显存才可信。请销毁实例，或请云厂商重置该 GPU。</translation>
    </message>
    <message>
        <source>No row remap is pending or failed.</source>
        <translation>没有待生效或失败的行重映射。</translation>
    </message>
    <message>
        <source>The temperature under load or the slowdown threshold was not reported.</source>
        <translation>没有报告负载下的温度或降频温度阈值。</translation>
    </message>
    <message>
        <source>This GPU reached %1 °C under load, at or above its %2 °C slowdown threshold: it slows itself down. The cooling of this host is failing; terminate the instance or take it up with the provider.</source>
        <translation>该 GPU 在负载下温度达到 %1 °C，达到或超过 %2 °C 的降频阈值，会自行降频。这台主机散热有问题；请销毁实例或向云厂商反映。</translation>
    </message>
    <message>
        <source>The GPU stayed at %1 °C under load, below its %2 °C slowdown threshold.</source>
        <translation>负载下 GPU 温度保持在 %1 °C，低于 %2 °C 的降频阈值。</translation>
    </message>
    <message>
        <source>The power under load or the enforced limit was not reported.</source>
        <translation>没有报告负载下的功耗或实际生效的功耗上限。</translation>
    </message>
    <message>
        <source>Under load the GPU drew %1 W, %2 of its enforced %3 W limit.</source>
        <translation>负载下 GPU 功耗为 %1 W，是其生效功耗上限 %3 W 的 %2 倍。</translation>
    </message>
    <message>
        <source>Under load the GPU drew only %1 W, %2 of its enforced %3 W limit (a healthy GPU under a GEMM draws at least 0.75 of it): it is held back by power delivery, clocks or another tenant.</source>
        <translation>负载下 GPU 功耗只有 %1 W，是其生效功耗上限 %3 W 的 %2 倍（健康的 GPU 跑 GEMM 时至少达到 0.75 倍）：它受到供电、频率或其他租户的限制。</translation>
    </message>
    <message>
        <source>The PCIe link under load was not reported.</source>
        <translation>没有报告负载下的 PCIe 链路状态。</translation>
    </message>
    <message>
        <source>The PCIe link ran at its full Gen%1 x%2 under load.</source>
        <translation>负载下 PCIe 链路达到满速 Gen%1 x%2。</translation>
    </message>
    <message>
        <source>The PCIe link of this GPU ran at Gen%1 x%2 under load, below its Gen%3 x%4: host-device copies are slower. On bare metal this is a badly seated card or riser; take it up with the provider.</source>
        <translation>该 GPU 的 PCIe 链路在负载下只跑到 Gen%1 x%2，低于其 Gen%3 x%4：主机与设备之间的拷贝会变慢。在裸金属上，这说明显卡或转接卡没插好；请向云厂商反映。</translation>
    </message>
    <message>
        <source>The PCIe link of this GPU ran at Gen%1 x%2 under load, below its Gen%3 x%4: host-device copies are slower. Inside a VM the reported link often is not the physical one, so this is only a warning.</source>
        <translation>该 GPU 的 PCIe 链路在负载下只跑到 Gen%1 x%2，低于其 Gen%3 x%4：主机与设备之间的拷贝会变慢。虚拟机里报告的链路往往不是物理链路，因此这里只作警告。</translation>
    </message>
    <message>
        <source>This GPU was slowed down by hardware during the GEMM test (%1): overheating, a power supply fault or a power brake. It will not run at its speed; terminate the instance or take it up with the provider.</source>
        <translation>GEMM 测试期间该 GPU 被硬件降频（%1）：原因是过热、供电故障或功率制动。它跑不到应有的速度；请销毁实例或向云厂商反映。</translation>
    </message>
    <message>
        <source>The driver slowed this GPU down because it ran hot (sw_thermal) during the GEMM test.</source>
        <translation>GEMM 测试期间该 GPU 温度过高，被驱动降频（sw_thermal）。</translation>
    </message>
    <message>
        <source>No harmful clock throttling during the GEMM test.</source>
        <translation>GEMM 测试期间没有出现有害的降频。</translation>
    </message>
    <message>
        <source>MIG is on for this GPU: it is split into slices, each with a share of the GPU, so its speed cannot be compared with the whole GPU&apos;s datasheet.</source>
        <translation>该 GPU 开启了 MIG：它被切分成多个切片，每个切片只占 GPU 的一部分，因此其速度无法与整卡的规格书数据比较。</translation>
    </message>
    <message>
        <source>%1 needs driver %2</source>
        <translation>%1 需要驱动 %2</translation>
    </message>
    <message>
        <source>%1 starts at sm_%2</source>
        <translation>%1 最低支持 sm_%2</translation>
    </message>
    <message>
        <source>%1 needs glibc %2 and this system has %3</source>
        <translation>%1 需要 glibc %2，而本系统是 %3</translation>
    </message>
    <message>
        <source>the bundled probes are built for x86_64 and this machine is %1</source>
        <translation>内置探针是为 x86_64 构建的，而这台机器是 %1</translation>
    </message>
    <message>
        <source>this GPU Planner has no bundled probe</source>
        <translation>这一版 GPU Planner 没有内置探针</translation>
    </message>
    <message>
        <source>no bundled probe runs here (%1)</source>
        <translation>没有可在这里运行的内置探针（%1）</translation>
    </message>
    <message>
        <source>this machine has no NVIDIA GPU</source>
        <translation>这台机器没有 NVIDIA GPU</translation>
    </message>
    <message>
        <source>an NVIDIA GPU is installed but no driver answers (nvidia-smi is missing or fails): install the driver first</source>
        <translation>机器装有 NVIDIA GPU，但驱动没有响应（nvidia-smi 缺失或运行失败）：请先安装驱动</translation>
    </message>
    <message>
        <source>the bundled probes are built for x86_64 and this machine is %1, with neither nvcc %2 or newer nor Docker with the NVIDIA runtime to build the probe there</source>
        <translation>内置探针是为 x86_64 构建的，而这台机器是 %1，且机器上既没有 nvcc %2 及以上版本，也没有带 NVIDIA 运行时的 Docker，无法在上面构建探针</translation>
    </message>
    <message>
        <source>the %1 probe runs on driver %2</source>
        <translation>%1 版探针可在驱动 %2 上运行</translation>
    </message>
    <message>
        <source>driver %1 is too old for the bundled probes, and the machine has neither nvcc %2 or newer nor Docker with the NVIDIA runtime: update the driver (GPU Planner can run its driver set-up script) and verify again</source>
        <translation>驱动 %1 太旧，无法运行内置探针，且机器上既没有 nvcc %2 及以上版本，也没有带 NVIDIA 运行时的 Docker：请升级驱动（GPU Planner 可以运行其驱动安装脚本）后重新验证</translation>
    </message>
    <message>
        <source>%1; building it there with nvcc %2</source>
        <translation>%1；改为在该机器上用 nvcc %2 构建</translation>
    </message>
    <message>
        <source>%1; building and running it in %2 (Docker with the NVIDIA runtime)</source>
        <translation>%1；改为在 %2 中构建并运行（带 NVIDIA 运行时的 Docker）</translation>
    </message>
    <message>
        <source>%1, and the machine has neither nvcc %2 or newer nor Docker with the NVIDIA runtime to build it there</source>
        <translation>%1，且机器上既没有 nvcc %2 及以上版本，也没有带 NVIDIA 运行时的 Docker，无法在上面构建</translation>
    </message>
    <message>
        <source>The GPUs are there but not ready (%1): on machines whose GPUs are joined by NVSwitch the fabric manager must run before CUDA can use them. Start it (`sudo systemctl start nvidia-fabricmanager`; its version must match the driver&apos;s) and verify again; if it will not start, take it up with the provider.</source>
        <translation>GPU 在，但还没有就绪（%1）：GPU 之间通过 NVSwitch 互联的机器，必须先启动 fabric manager，CUDA 才能使用这些 GPU。请启动它（`sudo systemctl start nvidia-fabricmanager`，版本须与驱动一致）后重新验证；如果启动不了，请联系云厂商。</translation>
    </message>
    <message>
        <source>The GPUs are there but busy or closed to new programs (%1): another process holds them in exclusive mode, or the compute mode prohibits use. See `nvidia-smi` for the processes and the compute mode, stop what holds them and verify again.</source>
        <translation>GPU 在，但正忙或不允许新程序使用（%1）：另一个进程以独占模式占着它们，或者计算模式禁止使用。用 `nvidia-smi` 查看进程和计算模式，停掉占用的进程后重新验证。</translation>
    </message>
    <message>
        <source> on GPU %1 in %2</source>
        <translation>（GPU %1，%2 测试中）</translation>
    </message>
    <message>
        <source> on GPU %1</source>
        <translation>（GPU %1）</translation>
    </message>
    <message>
        <source> in %1</source>
        <translation>（%1 测试中）</translation>
    </message>
    <message>
        <source>The probe stopped waiting%1: a GPU or driver call hung. A GPU that hangs is not usable; the results measured before are below. Run the probe again; if it hangs again, terminate the instance.</source>
        <translation>探针等待超时%1：某个 GPU 或驱动调用卡住了。会卡死的 GPU 不能用；此前测得的结果见下。请重新运行探针；如果再次卡住，请销毁实例。</translation>
    </message>
    <message>
        <source>The probe was stopped%1 (a signal: the connection closed, or someone stopped it); the results measured before are below. Run it again.</source>
        <translation>探针被中止%1（收到信号：连接断开，或有人手动停止）；此前测得的结果见下。请重新运行。</translation>
    </message>
    <message>
        <source>The probe crashed%1; the results measured before are below. Run it again; if it crashes the same way, report it with the probe&apos;s output.</source>
        <translation>探针崩溃了%1；此前测得的结果见下。请重新运行；如果以同样方式崩溃，请附上探针输出报告问题。</translation>
    </message>
    <message>
        <source>This GPU could not be measured (%1): %2.</source>
        <translation>无法测试该 GPU（%1）：%2。</translation>
    </message>
    <message>
        <source>Its memory had an uncorrectable error during the tests: do not train on it; terminate the instance and report the GPU to the provider.</source>
        <translation>测试期间显存出现了不可纠正的错误：不要在这张卡上训练；请销毁实例，并向云厂商报告该 GPU。</translation>
    </message>
    <message>
        <source>The GPU faulted while running the probe&apos;s own kernels (an Xid error is likely in the kernel log, `dmesg`): do not train on it; terminate the instance and report the GPU.</source>
        <translation>GPU 在运行探针自带的内核时出错（内核日志 `dmesg` 里很可能有 Xid 错误）：不要在这张卡上训练；请销毁实例并报告该 GPU。</translation>
    </message>
    <message>
        <source>There was not enough free GPU memory: another process holds it (see `nvidia-smi`). Stop it and verify again.</source>
        <translation>GPU 空闲显存不足：被另一个进程占用了（见 `nvidia-smi`）。停掉它后重新验证。</translation>
    </message>
    <message>
        <source>This probe build holds no code this GPU can run. Deploy the probe again and let GPU Planner build it there; report the GPU&apos;s name if that fails too.</source>
        <translation>这个探针版本里没有这张 GPU 能运行的代码。请重新部署探针，让 GPU Planner 在机器上现场编译；如果仍然失败，请报告该 GPU 的型号。</translation>
    </message>
    <message>
        <source>The GPU is not ready: on NVSwitch machines the fabric manager must run (`sudo systemctl start nvidia-fabricmanager`). Start it and verify again.</source>
        <translation>GPU 还没有就绪：带 NVSwitch 的机器必须运行 fabric manager（`sudo systemctl start nvidia-fabricmanager`）。启动后重新验证。</translation>
    </message>
    <message>
        <source>The GPU is busy or closed to new programs (exclusive or prohibited compute mode, see `nvidia-smi`). Free it and verify again.</source>
        <translation>GPU 正忙或不允许新程序使用（独占或禁止的计算模式，见 `nvidia-smi`）。释放后重新验证。</translation>
    </message>
    <message>
        <source>An NVLink between the GPUs had an uncorrectable error: multi-GPU training would fail or corrupt data. Terminate the instance and report it to the provider.</source>
        <translation>GPU 之间的 NVLink 出现了不可纠正的错误：多卡训练会失败或损坏数据。请销毁实例并向云厂商报告。</translation>
    </message>
    <message>
        <source>It hung: a GPU that hangs is not usable. Run the probe again; if it hangs again, terminate the instance.</source>
        <translation>它卡住了：会卡死的 GPU 不能用。请重新运行探针；如果再次卡住，请销毁实例。</translation>
    </message>
    <message>
        <source>The probe was stopped before it finished with this GPU; run it again.</source>
        <translation>探针在测完这张 GPU 之前被中止了；请重新运行。</translation>
    </message>
    <message>
        <source>The probe crashed while measuring it; run it again, and report it if it crashes again.</source>
        <translation>探针在测试这张 GPU 时崩溃了；请重新运行，如果再次崩溃请报告问题。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>This is a MIG slice with a share of the GPU&apos;s memory (%1 MiB); not compared with the whole GPU&apos;s.</source>
        <translation>这是一个 MIG 切片，只有整卡显存的一部分（%1 MiB）；不与整卡显存比较。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3, %4 of cuBLASLt&apos;s %5 TFLOPS on this GPU; shown for information, not judged.</source>
        <translation>“%1”测试达到 %2 %3，是同一张 GPU 上 cuBLASLt（%5 TFLOPS）的 %4 倍；仅供参考，不作判定。</translation>
    </message>
    <message>
        <source>The %1 test reached %2 %3; there is no cuBLASLt figure on this GPU to compare it with, and it is shown for information, not judged.</source>
        <translation>“%1”测试达到 %2 %3；这张 GPU 上没有 cuBLASLt 的结果可供对比，仅供参考，不作判定。</translation>
    </message>
    <message>
        <source>Power is judged only in the full run: the quick run&apos;s GEMMs are too short for the GPU to reach its power limit.</source>
        <translation>功耗只在完整测试中判定：快速测试的 GEMM 时间太短，GPU 达不到功耗上限。</translation>
    </message>
    <message>
        <source>the burn-in</source>
        <translation>烤机测试</translation>
    </message>
    <message>
        <source>the GEMM tests</source>
        <translation>GEMM 测试</translation>
    </message>
    <message>
        <source>NVML gave no clock readings while the GPU was busy during %1; not judged.</source>
        <translation>%1期间 GPU 忙碌时，NVML 没有给出频率读数；不作判定。</translation>
    </message>
    <message>
        <source>This GPU was slowed down by hardware (%1) in %2 % of the busy samples of %3: overheating, a power supply fault or a power brake. It will not run at its speed; terminate the instance or take it up with the provider.</source>
        <translation>%3中该 GPU 有 %2% 的忙碌采样点被硬件降频（%1）：原因是过热、供电故障或功率制动。它跑不到应有的速度；请销毁实例或向云厂商反映。</translation>
    </message>
    <message>
        <source>This GPU was briefly slowed down by hardware (%1, %2 % of the busy samples of %3); watch its speed during training.</source>
        <translation>%3中该 GPU 短暂被硬件降频（%1，占忙碌采样点的 %2%）；训练时请留意它的速度。</translation>
    </message>
    <message>
        <source>The driver slowed this GPU down because it ran hot (sw_thermal) in %1 % of the busy samples of %2.</source>
        <translation>%2中该 GPU 有 %1% 的忙碌采样点因温度过高被驱动降频（sw_thermal）。</translation>
    </message>
    <message>
        <source>No harmful clock throttling in %1 busy samples of %2.</source>
        <translation>%2的 %1 个忙碌采样点中没有出现有害的降频。</translation>
    </message>
    <message>
        <source>This GPU reaches GPU %1 through the host (no peer access), not over the NVLink its model has: multi-GPU training will be slower. Check `nvidia-smi topo -m`.</source>
        <translation>该 GPU 到 GPU %1 的数据要经主机中转（无法点对点访问），没有走这个型号应有的 NVLink：多卡训练会变慢。请检查 `nvidia-smi topo -m`。</translation>
    </message>
    <message>
        <source>This GPU reaches GPU %1 over PCIe, not over the NVLink its model has: multi-GPU training will be slower. Check `nvidia-smi topo -m`.</source>
        <translation>该 GPU 到 GPU %1 走的是 PCIe，而不是这个型号应有的 NVLink：多卡训练会变慢。请检查 `nvidia-smi topo -m`。</translation>
    </message>
    <message>
        <source>Copies to GPU %1 reached %2 GB/s; the link they ran on is not known, so they are not judged.</source>
        <translation>到 GPU %1 的拷贝达到 %2 GB/s；所用链路未知，不作判定。</translation>
    </message>
    <message>
        <source>NVLink, per direction</source>
        <translation>NVLink 单向</translation>
    </message>
    <message>
        <source>the PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <source>Copies from this GPU to GPU %1 reached %2 GB/s, %3 of %4 GB/s (%5).</source>
        <translation>从该 GPU 到 GPU %1 的拷贝达到 %2 GB/s，是 %4 GB/s（%5）的 %3 倍。</translation>
    </message>
    <message>
        <source>Copies from this GPU to GPU %1 reached %2 GB/s, %3 of %4 GB/s (%5): slower than a healthy link.</source>
        <translation>从该 GPU 到 GPU %1 的拷贝达到 %2 GB/s，是 %4 GB/s（%5）的 %3 倍：比健康的链路慢。</translation>
    </message>
    <message>
        <source>Copies from this GPU to GPU %1 reached %2 GB/s, %3 of %4 GB/s (%5): far slower than the link allows.</source>
        <translation>从该 GPU 到 GPU %1 的拷贝只有 %2 GB/s，是 %4 GB/s（%5）的 %3 倍：远低于链路应有的速度。</translation>
    </message>
    <message>
        <source>The NCCL all-reduce test did not run: %1.</source>
        <translation>NCCL all-reduce 测试没有运行：%1。</translation>
    </message>
    <message>
        <source>NCCL&apos;s all-reduce reached a bus bandwidth of %1 GB/s; the link between the GPUs is not known, so it is not judged.</source>
        <translation>NCCL all-reduce 的总线带宽达到 %1 GB/s；GPU 之间的链路未知，不作判定。</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>NCCL&apos;s all-reduce reached a bus bandwidth of %1 GB/s, %2 of the %3 GB/s per direction of %4</source>
        <translation>NCCL all-reduce 的总线带宽达到 %1 GB/s，是%4单向 %3 GB/s 的 %2 倍</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1。</translation>
    </message>
    <message>
        <source>%1: slower than a healthy machine.</source>
        <translation>%1：比健康的机器慢。</translation>
    </message>
    <message>
        <source>%1: multi-GPU training will be held back by communication.</source>
        <translation>%1：多卡训练会被通信拖慢。</translation>
    </message>
    <message>
        <source>Under sustained load this GPU computed %1 wrong result(s) and %2 NaN(s) in %3 GEMMs of the same inputs: it fails when it runs hot or long. Do not train on it; terminate the instance and report the GPU.</source>
        <translation>持续满载下，该 GPU 在 %3 次相同输入的 GEMM 中算错了 %1 次，出现 %2 个 NaN：它在高温或长时间运行时会出错。不要在这张卡上训练；请销毁实例并报告该 GPU。</translation>
    </message>
    <message>
        <source>The driver reported %1 critical Xid error(s) (%2) on this GPU during the burn-in: the GPU or its driver faulted. Terminate the instance and report the GPU.</source>
        <translation>烤机测试期间驱动报告该 GPU 出现 %1 次严重 Xid 错误（%2）：GPU 或其驱动出了故障。请销毁实例并报告该 GPU。</translation>
    </message>
    <message>
        <source>This GPU ran %1 GEMMs in %2 s of sustained load with identical results every time.</source>
        <translation>该 GPU 在 %2 秒持续满载中跑了 %1 次 GEMM，每次结果都完全一致。</translation>
    </message>
    <message>
        <source>This GPU held its speed under sustained load (%1 -&gt; %2 TFLOPS, %3).</source>
        <translation>持续满载下该 GPU 保持住了速度（%1 -&gt; %2 TFLOPS，%3 倍）。</translation>
    </message>
    <message>
        <source>This GPU slowed down under sustained load, from %1 to %2 TFLOPS (%3): it cannot hold its clocks (cooling or power).</source>
        <translation>持续满载下该 GPU 变慢了，从 %1 降到 %2 TFLOPS（%3 倍）：它保持不住频率（散热或供电问题）。</translation>
    </message>
    <message>
        <source>This GPU slowed down under sustained load, from %1 to %2 TFLOPS (%3): it cannot hold its clocks (cooling or power); a long training run on it will be much slower than planned.</source>
        <translation>持续满载下该 GPU 变慢了，从 %1 降到 %2 TFLOPS（%3 倍）：它保持不住频率（散热或供电问题）；在它上面长时间训练会比计划慢很多。</translation>
    </message>
    <message>
        <source>It failed in the probe&apos;s own GEMM kernel, which is still experimental: more likely a GPU Planner bug than a faulty GPU. The tests before it are judged as usual; the ones after it did not run. Please report it with the probe&apos;s output.</source>
        <translation>出错的是探针自带的 GEMM 内核，它还处于试验阶段：更可能是 GPU Planner 的 bug，而不是 GPU 有问题。在它之前的测试照常判定，之后的测试没有运行。请附上探针输出报告这个问题。</translation>
    </message>
    <message>
        <source>The probe found no CUDA GPU on the instance. Check that `nvidia-smi` lists the GPUs and that CUDA_VISIBLE_DEVICES does not hide them; if the provider attached none, terminate the instance so that it stops costing money, and take it up with the provider.</source>
        <translation>探针在实例上没有找到 CUDA GPU。请确认 `nvidia-smi` 能列出 GPU，且 CUDA_VISIBLE_DEVICES 没有把它们屏蔽；如果云厂商根本没有挂载 GPU，请先销毁实例以免继续计费，再联系云厂商处理。</translation>
    </message>
    <message>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>NVML</source>
        <translation>NVML</translation>
    </message>
    <message>
        <source>MIG mode</source>
        <translation>MIG 模式</translation>
    </message>
    <message>
        <source>probe error</source>
        <translation>探针错误</translation>
    </message>
    <message>
        <source>probe incomplete</source>
        <translation>探针未跑完</translation>
    </message>
    <message>
        <source>GPU error</source>
        <translation>GPU 错误</translation>
    </message>
    <message>
        <source>GEMM correctness</source>
        <translation>GEMM 结果正确性</translation>
    </message>
    <message>
        <source>FP32 FMA peak</source>
        <translation>FP32 FMA 峰值</translation>
    </message>
    <message>
        <source>FP16 GEMM (cuBLASLt)</source>
        <translation>FP16 GEMM（cuBLASLt）</translation>
    </message>
    <message>
        <source>BF16 GEMM (cuBLASLt)</source>
        <translation>BF16 GEMM（cuBLASLt）</translation>
    </message>
    <message>
        <source>TF32 GEMM (cuBLASLt)</source>
        <translation>TF32 GEMM（cuBLASLt）</translation>
    </message>
    <message>
        <source>FP8 GEMM (cuBLASLt)</source>
        <translation>FP8 GEMM（cuBLASLt）</translation>
    </message>
    <message>
        <source>FP16 tensor cores (own kernel)</source>
        <translation>FP16 张量核心（自带内核）</translation>
    </message>
    <message>
        <source>FP16 GEMM (own kernel, for information)</source>
        <translation>FP16 GEMM（自研内核，仅供参考）</translation>
    </message>
    <message>
        <source>BF16 GEMM (own kernel, for information)</source>
        <translation>BF16 GEMM（自研内核，仅供参考）</translation>
    </message>
    <message>
        <source>memory bandwidth (copy)</source>
        <translation>显存带宽（copy）</translation>
    </message>
    <message>
        <source>memory bandwidth (triad)</source>
        <translation>显存带宽（triad）</translation>
    </message>
    <message>
        <source>host to GPU (pinned)</source>
        <translation>主机到 GPU（锁页内存）</translation>
    </message>
    <message>
        <source>GPU to host (pinned)</source>
        <translation>GPU 到主机（锁页内存）</translation>
    </message>
    <message>
        <source>GPU to GPU (peer)</source>
        <translation>GPU 间（P2P）</translation>
    </message>
    <message>
        <source>NCCL all-reduce</source>
        <translation>NCCL all-reduce 带宽</translation>
    </message>
    <message>
        <source>ECC errors</source>
        <translation>ECC 错误</translation>
    </message>
    <message>
        <source>retired pages</source>
        <translation>退役页</translation>
    </message>
    <message>
        <source>remapped rows</source>
        <translation>行重映射</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>power limit</source>
        <translation>功耗上限</translation>
    </message>
    <message>
        <source>PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <source>throttling</source>
        <translation>降频</translation>
    </message>
    <message>
        <source>burn-in: results</source>
        <translation>烤机：计算结果</translation>
    </message>
    <message>
        <source>burn-in: speed</source>
        <translation>烤机：速度</translation>
    </message>
    <message>
        <source>burn-in: throttling</source>
        <translation>烤机：降频</translation>
    </message>
    <message>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <source>%1; the GPU of compute capability %2 runs its PTX</source>
        <translation>%1；计算能力 %2 的 GPU 运行其 PTX（由驱动即时编译）</translation>
    </message>
    <message>
        <source>The driver supports CUDA up to %1, older than this probe build&apos;s CUDA %2. The CUDA 11.8 build of the probe runs on drivers from %3 on (and on V100); the deploy step picks that build when the remote driver is older than R580, so deploy the probe again and let it choose, or update the driver to 580 or newer.</source>
        <translation>该驱动最高支持 CUDA %1，低于此探针构建所用的 CUDA %2。探针的 CUDA 11.8 构建可在 %3 及更新的驱动上运行（也支持 V100）；远程驱动早于 R580 时部署步骤会选用该构建，请重新部署探针并让它自动选择，或将驱动升级到 580 或更新版本。</translation>
    </message>
    <message>
        <source>The driver %1 supports CUDA up to %2, older than this probe build&apos;s CUDA %3. The CUDA 11.8 build of the probe runs on drivers from %4 on (and on V100); the deploy step picks that build when the remote driver is older than R580, so deploy the probe again and let it choose, or update the driver to 580 or newer.</source>
        <translation>驱动 %1 最高支持 CUDA %2，低于此探针构建所用的 CUDA %3。探针的 CUDA 11.8 构建可在 %4 及更新的驱动上运行（也支持 V100）；远程驱动早于 R580 时部署步骤会选用该构建，请重新部署探针并让它自动选择，或将驱动升级到 580 或更新版本。</translation>
    </message>
    <message>
        <source>The driver supports CUDA up to %1, older than this probe build&apos;s CUDA %2. No older build of the probe exists: update the driver to one for CUDA %2 or newer (the provider&apos;s current GPU image has one).</source>
        <translation>该驱动最高支持 CUDA %1，低于此探针构建所用的 CUDA %2。探针没有更旧的构建：请将驱动升级到支持 CUDA %2 或更新版本的驱动（云厂商当前的 GPU 镜像中已包含）。</translation>
    </message>
    <message>
        <source>The driver %1 supports CUDA up to %2, older than this probe build&apos;s CUDA %3. No older build of the probe exists: update the driver to one for CUDA %3 or newer (the provider&apos;s current GPU image has one).</source>
        <translation>驱动 %1 最高支持 CUDA %2，低于此探针构建所用的 CUDA %3。探针没有更旧的构建：请将驱动升级到支持 CUDA %3 或更新版本的驱动（云厂商当前的 GPU 镜像中已包含）。</translation>
    </message>
    <message>
        <source>V100</source>
        <translation>V100</translation>
    </message>
    <message>
        <source>PCIe HBM</source>
        <translation>PCIe 版 HBM</translation>
    </message>
    <message>
        <source>SXM HBM</source>
        <translation>SXM 版 HBM</translation>
    </message>
    <message>
        <source>TF32 GEMM, sm_80+</source>
        <translation>TF32 GEMM，sm_80 及以上</translation>
    </message>
    <message>
        <source>FP8 GEMM, sm_89/sm_90/sm_100</source>
        <translation>FP8 GEMM，sm_89/sm_90/sm_100</translation>
    </message>
    <message>
        <source>P2P over NVLink, per direction</source>
        <translation>经 NVLink 的 P2P，单向</translation>
    </message>
    <message>
        <source>P2P over PCIe, against the negotiated link</source>
        <translation>经 PCIe 的 P2P，以协商后的链路带宽为基准</translation>
    </message>
    <message>
        <source>no figure</source>
        <translation>无数值</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>no driver</source>
        <translation>无驱动</translation>
    </message>
    <message>
        <source>a share</source>
        <translation>部分份额</translation>
    </message>
    <message>
        <source>NVML unavailable</source>
        <translation>NVML 不可用</translation>
    </message>
    <message>
        <source>NVML (libnvidia-ml.so.1)</source>
        <translation>NVML（libnvidia-ml.so.1）</translation>
    </message>
    <message>
        <source>0 GPUs</source>
        <translation>0 个 GPU</translation>
    </message>
    <message>
        <source>a CUDA GPU</source>
        <translation>一个 CUDA GPU</translation>
    </message>
    <message>
        <source>no error</source>
        <translation>无错误</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>已测量</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>informational</source>
        <translation>仅供参考</translation>
    </message>
    <message>
        <source>0 wrong, 0 NaN</source>
        <translation>0 个错误结果，0 个 NaN</translation>
    </message>
    <message>
        <source>no Xid</source>
        <translation>无 Xid</translation>
    </message>
    <message>
        <source>0 wrong, 0 NaN, no Xid</source>
        <translation>0 个错误结果，0 个 NaN，无 Xid</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>0 uncorrectable</source>
        <translation>0 个不可纠正错误</translation>
    </message>
    <message>
        <source>0 volatile uncorrectable</source>
        <translation>0 个易失性不可纠正错误</translation>
    </message>
    <message>
        <source>0 aggregate uncorrectable</source>
        <translation>0 个累计不可纠正错误</translation>
    </message>
    <message>
        <source>ECC on</source>
        <translation>ECC 开启</translation>
    </message>
    <message>
        <source>none pending</source>
        <translation>无待处理</translation>
    </message>
    <message>
        <source>no failure, none pending</source>
        <translation>无失败，无待处理</translation>
    </message>
    <message>
        <source>full run</source>
        <translation>完整运行</translation>
    </message>
    <message>
        <source>no busy samples</source>
        <translation>无繁忙采样</translation>
    </message>
    <message>
        <source>no hw_slowdown, hw_thermal, hw_power_brake, sw_thermal</source>
        <translation>无 hw_slowdown、hw_thermal、hw_power_brake、sw_thermal</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>ok: %1</source>
        <translation>ok: %1</translation>
    </message>
    <message>
        <source>CUDA &gt;= %1 (driver &gt;= %2)</source>
        <translation>CUDA &gt;= %1（驱动 &gt;= %2）</translation>
    </message>
    <message>
        <source>CUDA &gt;= %1 (driver &gt;= a driver for CUDA %1)</source>
        <translation>CUDA &gt;= %1（驱动 &gt;= 支持 CUDA %1 的驱动）</translation>
    </message>
    <message>
        <source>%1 (CUDA %2)</source>
        <translation>%1（CUDA %2）</translation>
    </message>
    <message>
        <source>unknown (CUDA %1)</source>
        <translation>未知（CUDA %1）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 GiB (%2 MiB)</source>
        <translation>%1 GiB（%2 MiB）</translation>
    </message>
    <message>
        <source>%1 x %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>repeat identical</source>
        <translation>重复结果一致</translation>
    </message>
    <message>
        <source>repeat differs</source>
        <translation>重复结果不一致</translation>
    </message>
    <message>
        <source>%1, NaN %2, max rel. error %3</source>
        <translation>%1，NaN %2，最大相对误差 %3</translation>
    </message>
    <message>
        <source>not finite</source>
        <translation>非有限值</translation>
    </message>
    <message>
        <source>repeat identical, NaN 0, max rel. error &lt;= %1</source>
        <translation>重复结果一致，NaN 0，最大相对误差 &lt;= %1</translation>
    </message>
    <message>
        <source>%1 %2 (%3 of %4)</source>
        <translation>%1 %2（%4 的 %3）</translation>
    </message>
    <message>
        <source>peak %1 %2</source>
        <translation>峰值 %1 %2</translation>
    </message>
    <message>
        <source>&gt;= %1 of %2 %3 (fail &lt; %4)</source>
        <translation>&gt;= %2 %3 的 %1（低于 %4 为失败）</translation>
    </message>
    <message>
        <source>%1 %2 (%3 of cuBLASLt)</source>
        <translation>%1 %2（cuBLASLt 的 %3）</translation>
    </message>
    <message>
        <source>%1 %2 to GPU %3 (%4)</source>
        <translation>%1 %2 至 GPU %3（%4）</translation>
    </message>
    <message>
        <source>%1 %2 to GPU %3</source>
        <translation>%1 %2 至 GPU %3</translation>
    </message>
    <message>
        <source>%1 (%2 of %3)</source>
        <translation>%1（%3 的 %2）</translation>
    </message>
    <message>
        <source>%1 GEMMs in %2 s, %3 wrong, %4 NaN, Xid %5</source>
        <translation>%2 秒内 %1 次 GEMM，%3 个错误结果，%4 个 NaN，Xid %5</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>%1 -&gt; %2 TFLOPS (%3)</source>
        <translation>%1 -&gt; %2 TFLOPS（%3）</translation>
    </message>
    <message>
        <source>&gt;= %1 (fail &lt; %2)</source>
        <translation>&gt;= %1（低于 %2 为失败）</translation>
    </message>
    <message>
        <source>%1, volatile uncorrectable %2, aggregate uncorrectable %3</source>
        <translation>%1，易失性不可纠正 %2，累计不可纠正 %3</translation>
    </message>
    <message>
        <source>%1 retired, retirement pending</source>
        <translation>已退役 %1 页，有退役待处理</translation>
    </message>
    <message>
        <source>%1 retired, none pending</source>
        <translation>已退役 %1 页，无待处理</translation>
    </message>
    <message>
        <source>%1 correctable, %2 uncorrectable</source>
        <translation>可纠正 %1，不可纠正 %2</translation>
    </message>
    <message>
        <source>%1, remap pending</source>
        <translation>%1，重映射待处理</translation>
    </message>
    <message>
        <source>%1, remap failed</source>
        <translation>%1，重映射失败</translation>
    </message>
    <message>
        <source>&lt; %1 %2</source>
        <translation>&lt; %1 %2</translation>
    </message>
    <message>
        <source>&lt; %1 C (slowdown)</source>
        <translation>&lt; %1 C（降频阈值）</translation>
    </message>
    <message>
        <source>&gt;= %1 %2</source>
        <translation>&gt;= %1 %2</translation>
    </message>
    <message>
        <source>%1 W (%2 of %3 W)</source>
        <translation>%1 W（%3 W 的 %2）</translation>
    </message>
    <message>
        <source>&gt;= %1 x %2 W</source>
        <translation>&gt;= %1 × %2 W</translation>
    </message>
    <message>
        <source>Gen%1 x%2</source>
        <translation>Gen%1 x%2</translation>
    </message>
    <message>
        <source>%1 %2 %</source>
        <translation>%1 %2 %</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>hw_slowdown, hw_thermal, hw_power_brake &lt; %1 % of %2 busy samples</source>
        <translation>hw_slowdown、hw_thermal、hw_power_brake 低于 %2 个繁忙采样的 %1 %</translation>
    </message>
</context>
<context>
    <name>VertexText</name>
    <message>
        <source>the project</source>
        <translation>该项目</translation>
    </message>
    <message>
        <source>the job would exceed the project&apos;s Vertex AI training quota %1 in %2: in the console open IAM &amp; Admin -&gt; Quotas, filter by the service aiplatform.googleapis.com and the metric, select it and request an increase (a new project&apos;s GPU training quotas are 0)</source>
        <translation>该作业会超出项目在 %2 的 Vertex AI 训练配额 %1：在控制台打开 IAM 和管理 -&gt; 配额，按服务 aiplatform.googleapis.com 和该指标筛选，选中后申请提高（新项目的 GPU 训练配额为 0）</translation>
    </message>
    <message>
        <source>for training GPUs</source>
        <translation>训练用 GPU</translation>
    </message>
    <message>
        <source>this region</source>
        <translation>该地域</translation>
    </message>
    <message>
        <source>Google is limiting the request rate of %1: wait a minute and try again</source>
        <translation>Google 正在限制 %1 的请求频率：请等一分钟再试</translation>
    </message>
    <message>
        <source>the API %1 is not enabled in %2: enable it in the console (APIs &amp; Services -&gt; Library, or the link in Google&apos;s message), wait a few minutes, then try again</source>
        <translation>%2 未启用 API %1：请在控制台启用（API 和服务 -&gt; 库，或 Google 消息中的链接），等几分钟后再试</translation>
    </message>
    <message>
        <source>the service account may not do %1 (it lacks the permission %2): grant it the role %3 on %4 in the console (IAM &amp; Admin -&gt; IAM; Vertex AI User is roles/aiplatform.user)</source>
        <translation>该服务账号无权执行 %1（缺少权限 %2）：请在控制台（IAM 和管理 -&gt; IAM）为它授予 %4 上的角色 %3（Vertex AI 用户即 roles/aiplatform.user）</translation>
    </message>
    <message>
        <source>Google did not accept the service account&apos;s token: check that the key file is current and its key not deleted (IAM &amp; Admin -&gt; Service accounts -&gt; Keys)</source>
        <translation>Google 不接受该服务账号的令牌：请检查密钥文件是否为最新、其密钥是否已被删除（IAM 和管理 -&gt; 服务账号 -&gt; 密钥）</translation>
    </message>
    <message>
        <source>Vertex AI does not know what %1 asked for (the job is gone, or never existed)</source>
        <translation>Vertex AI 找不到 %1 所请求的对象（作业已不存在，或从未存在）</translation>
    </message>
    <message>
        <source>Vertex AI refused %1</source>
        <translation>Vertex AI 拒绝了 %1</translation>
    </message>
    <message>
        <source>Vertex AI answered HTTP %1 to %2</source>
        <translation>Vertex AI 对 %2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>%1 is not a Vertex AI training machine GPU Planner knows (&quot;vertex/g2-standard-8&quot;, &quot;vertex/a2-highgpu-1g&quot;, &quot;vertex/n1-standard-8+1xT4&quot;)</source>
        <translation>%1 不是 GPU Planner 支持的 Vertex AI 训练机型（如 &quot;vertex/g2-standard-8&quot;、&quot;vertex/a2-highgpu-1g&quot;、&quot;vertex/n1-standard-8+1xT4&quot;）</translation>
    </message>
    <message>
        <source>a Vertex AI launch needs a job: a container image and its command</source>
        <translation>在 Vertex AI 上启动需要一个作业：容器镜像及其命令</translation>
    </message>
    <message>
        <source>a Vertex AI job needs a container image (imageUri)</source>
        <translation>Vertex AI 作业需要容器镜像（imageUri）</translation>
    </message>
    <message>
        <source>a launch needs a client token (it labels the job)</source>
        <translation>启动需要客户端令牌（用作作业的标签）</translation>
    </message>
    <message>
        <source>the client token %1 cannot be a label value (lowercase letters, digits, &apos;-&apos; and &apos;_&apos;, at most 63)</source>
        <translation>客户端令牌 %1 不能用作标签值（只能含小写字母、数字、&apos;-&apos; 和 &apos;_&apos;，最多 63 个字符）</translation>
    </message>
    <message>
        <source>Vertex AI Spot jobs take no price limit (there is no bid): launch without one</source>
        <translation>Vertex AI 的竞价实例作业不接受价格上限（没有出价机制）：请不设上限启动</translation>
    </message>
    <message>
        <source>the job&apos;s end time (its timeout) must lie in the future</source>
        <translation>作业的结束时间（超时）必须晚于当前时间</translation>
    </message>
    <message>
        <source>a Vertex AI job takes at most 64 labels; this launch has %1</source>
        <translation>Vertex AI 作业最多 64 个标签；本次启动有 %1 个</translation>
    </message>
    <message>
        <source>no Google Cloud project: enter project_id in the credential, or use a service account key whose client_email ends in @&lt;project&gt;.iam.gserviceaccount.com</source>
        <translation>没有 Google Cloud 项目：请在凭据中填写 project_id，或使用 client_email 以 @&lt;project&gt;.iam.gserviceaccount.com 结尾的服务账号密钥</translation>
    </message>
    <message>
        <source>no HTTP transport configured</source>
        <translation>未配置 HTTP 传输</translation>
    </message>
    <message>
        <source>stopped before %1</source>
        <translation>在 %1 之前已停止</translation>
    </message>
    <message>
        <source>%1 is not a Vertex AI job id (a number)</source>
        <translation>%1 不是 Vertex AI 作业 ID（应为数字）</translation>
    </message>
    <message>
        <source>%1 is not a position in a Vertex AI job&apos;s log</source>
        <translation>%1 不是 Vertex AI 作业日志中的位置</translation>
    </message>
    <message>
        <source>Vertex AI cannot check a job without submitting it: launch without a dry run</source>
        <translation>Vertex AI 无法在不提交的情况下检查作业：请不使用试运行启动</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (Google: %2)</source>
        <translation>%1（Google：%2）</translation>
    </message>
    <message>
        <source>found Vertex AI job %1 (%2) from this launch&apos;s earlier request: nothing new submitted</source>
        <translation>找到本次启动先前请求提交的 Vertex AI 作业 %1（%2）：未再提交新作业</translation>
    </message>
    <message>
        <source>submitted Vertex AI job %1 in %2 on %3 with %4 x %5</source>
        <translation>已在 %2 提交 Vertex AI 作业 %1，机型 %3，%4 x %5</translation>
    </message>
    <message>
        <source>Vertex AI ends the job after %1 s, at %2 (its timeout)</source>
        <translation>Vertex AI 将在 %1 秒后（%2）结束该作业（超时）</translation>
    </message>
    <message>
        <source>Vertex AI bills a job for the time it runs; there is no monthly rental</source>
        <translation>Vertex AI 按作业运行时长计费，没有包年包月</translation>
    </message>
    <message>
        <source>Vertex AI&apos;s customJobs.create has no validate-only mode: a job cannot be checked without submitting it</source>
        <translation>Vertex AI 的 customJobs.create 没有仅校验模式：不提交就无法检查作业</translation>
    </message>
    <message>
        <source>A Vertex AI job has no machine of yours to shut down: it ends when its command exits, or at its timeout</source>
        <translation>Vertex AI 作业没有归你管理、可关机的机器：命令退出或到达超时时作业即结束</translation>
    </message>
    <message>
        <source>A Vertex AI job has no machine to log in to: no SSH key is needed</source>
        <translation>Vertex AI 作业没有可登录的机器：无需 SSH 密钥</translation>
    </message>
    <message>
        <source>A Vertex AI job has no machine to log in to: there is no SSH port to open</source>
        <translation>Vertex AI 作业没有可登录的机器：没有要开放的 SSH 端口</translation>
    </message>
    <message>
        <source>Vertex AI&apos;s customJobs.create takes no request id: GPU Planner finds an earlier attempt&apos;s job by its gpuplanner-token label before it submits</source>
        <translation>Vertex AI 的 customJobs.create 不接受请求 ID：GPU Planner 在提交前按 gpuplanner-token 标签查找先前尝试提交的作业</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::CatalogPage</name>
    <message>
        <source>Cloud GPU catalog</source>
        <translation>云 GPU 机型与价格</translation>
    </message>
    <message>
        <source>Every price and specification cites its source and date: select a row, or hover a price, to see them. &quot;unknown&quot; means no published price was found; none is guessed.</source>
        <translation>每个价格和规格都注明了来源和日期：选中一行，或把鼠标停在价格上即可查看。“未知”表示没有找到公开价格，我们不做估算。</translation>
    </message>
    <message>
        <source>Filter by provider, instance, GPU or region, e.g. A100</source>
        <translation>按云厂商、实例、GPU 或地域筛选，例如 A100</translation>
    </message>
    <message>
        <source>Shows only the rows where some column contains this text (case does not matter).</source>
        <translation>只显示某一列包含该文字的行（不区分大小写）。</translation>
    </message>
    <message>
        <source>The catalog could not be loaded: %1</source>
        <translation>目录加载失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>Showing %1 of %n offer row(s)</source>
        <translation>
            <numerusform>显示 %1 / 共 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a row to see where its figures come from.</source>
        <translation>选中一行，查看各项数据的来源。</translation>
    </message>
    <message>
        <source>Price: unknown. No published price was found; none is guessed.</source>
        <translation>价格：未知。没有找到公开价格，我们不做估算。</translation>
    </message>
    <message>
        <source>%1, %2: %3 — source: %4</source>
        <translation>%1，%2：%3 —— 来源：%4</translation>
    </message>
    <message>
        <source>Instance specifications: %1</source>
        <translation>实例规格：%1</translation>
    </message>
    <message>
        <source>GPU datasheet: %1</source>
        <translation>GPU 规格书：%1</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>spot above on-demand</source>
        <translation>竞价价格高于按量价格</translation>
    </message>
    <message>
        <source>far from the usual price</source>
        <translation>价格明显偏离同类</translation>
    </message>
    <message>
        <source>old price</source>
        <translation>价格过旧</translation>
    </message>
    <message>
        <source>dated in the future</source>
        <translation>日期晚于今天</translation>
    </message>
    <message>
        <source>No exchange rate in the catalog: prices are shown in their own currency.</source>
        <translation>目录中没有汇率：价格按各自原币种显示。</translation>
    </message>
    <message>
        <source>1 USD = %1 CNY, set by you. Prices stay in their own currency in the catalog; &quot;≈&quot; marks a converted price.</source>
        <translation>1 美元 = %1 元（你设置的汇率）。目录里的价格仍保留原币种；带“≈”的是换算后的价格。</translation>
    </message>
    <message>
        <source>1 USD = %1 CNY as of %2 (%3). Prices stay in their own currency in the catalog; &quot;≈&quot; marks a converted price.</source>
        <translation>1 美元 = %1 元，%2 的汇率（%3）。目录里的价格仍保留原币种；带“≈”的是换算后的价格。</translation>
    </message>
    <message>
        <source>Left out — %1</source>
        <translation>已跳过 —— %1</translation>
    </message>
    <message>
        <source>Check — %1: %2</source>
        <translation>请核对 —— %1：%2</translation>
    </message>
    <message>
        <source>Catalog checks: every entry loaded and every price passed the checks.</source>
        <translation>目录检查：所有条目均已加载，所有价格都通过了检查。</translation>
    </message>
    <message numerus="yes">
        <source>Catalog checks: %n finding(s) to look at</source>
        <translation>
            <numerusform>目录检查：有 %n 项需要核对</numerusform>
        </translation>
    </message>
    <message>
        <source>Show prices in:</source>
        <translation>价格显示为：</translation>
    </message>
    <message>
        <source>their own currency</source>
        <translation>原币种</translation>
    </message>
    <message>
        <source>Converts the prices shown with the exchange rate at the right; the catalog keeps each price in the provider&apos;s own currency.</source>
        <translation>按右侧汇率换算显示的价格；目录中的价格始终保留云厂商的原币种。</translation>
    </message>
    <message>
        <source>1 USD = </source>
        <translation>1 美元 = </translation>
    </message>
    <message>
        <source> CNY</source>
        <translation> 元</translation>
    </message>
    <message>
        <source>The exchange rate used for display. Set today&apos;s rate if the catalog&apos;s is old.</source>
        <translation>用于显示换算的汇率。如果目录里的汇率过旧，可以改成当天的汇率。</translation>
    </message>
    <message>
        <source>Use catalog rate</source>
        <translation>恢复目录汇率</translation>
    </message>
    <message>
        <source>compliance: %1</source>
        <translation>合规认证：%1</translation>
    </message>
    <message numerus="yes">
        <source>billed per %1, minimum %n s</source>
        <translation>
            <numerusform>按%1计费，最少 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>From your own catalog: %1</source>
        <translation>来自你的自定义目录：%1</translation>
    </message>
    <message>
        <source>second</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>minute</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>未注明日期</translation>
    </message>
    <message>
        <source>undated price</source>
        <translation>价格无日期</translation>
    </message>
    <message>
        <source>Refresh prices…</source>
        <translation>刷新价格…</translation>
    </message>
    <message>
        <source>Read the providers&apos; current public price lists (AWS, Azure) and show what changed</source>
        <translation>读取云厂商当前公开的价格表（AWS、Azure），并列出变动</translation>
    </message>
    <message>
        <source>the source states no date (read %1), so the price counts as old; check it against the source</source>
        <translation>来源没有注明日期（%1 读取），按旧价格对待；请对照来源核实</translation>
    </message>
    <message>
        <source>price as of %1 is %2 days old (older than %3); check it against the source</source>
        <translation>价格日期为 %1，已过去 %2 天（超过 %3 天）；请对照来源核实</translation>
    </message>
    <message>
        <source>price is dated %1, after today (%2)</source>
        <translation>价格日期为 %1，晚于今天（%2）</translation>
    </message>
    <message>
        <source>spot price %1 %3 is above the on-demand price %2 %3 in %4</source>
        <translation>%4 的竞价价格 %1 %3 高于按量价格 %2 %3</translation>
    </message>
    <message>
        <source>%1 %2 per GPU-month is more than %3× away from %4, the median of %5 other providers&apos; %6 prices for %7</source>
        <translation>每卡每月 %1 %2，与其他 %5 家云厂商 %7 的%6价格中位数 %4 相差超过 %3 倍</translation>
    </message>
    <message>
        <source>%1 %2 per GPU-hour is more than %3× away from %4, the median of %5 other providers&apos; %6 prices for %7</source>
        <translation>每卡每小时 %1 %2，与其他 %5 家云厂商 %7 的%6价格中位数 %4 相差超过 %3 倍</translation>
    </message>
    <message>
        <source> (converted at %1 CNY/USD)</source>
        <translation>（按 %1 人民币/美元换算）</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::ComparePage</name>
    <message>
        <source>Budget: no limit</source>
        <translation>预算：不限</translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation>预算：%1</translation>
    </message>
    <message>
        <source>Deadline: none</source>
        <translation>截止时间：不限</translation>
    </message>
    <message>
        <source>Deadline: %1</source>
        <translation>截止时间：%1</translation>
    </message>
    <message numerus="yes">
        <source>At least %n GPU(s)</source>
        <translation>
            <numerusform>至少 %n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Spot share: cheapest mode per offer</source>
        <translation>竞价占比：每个方案取最便宜的计费方式</translation>
    </message>
    <message>
        <source>Spot share: %1 %</source>
        <translation>竞价占比：%1%</translation>
    </message>
    <message>
        <source>Exchange rate: %1 CNY per USD</source>
        <translation>汇率：1 USD = %1 CNY</translation>
    </message>
    <message>
        <source>&lt;b&gt;No offer meets every constraint.&lt;/b&gt; The excluded list below says what each one missed; loosen the budget, the deadline or the scale.</source>
        <translation>&lt;b&gt;没有方案能满足全部约束条件。&lt;/b&gt;下方的排除列表列出了每个方案没满足的条件；可以放宽预算、截止时间或 GPU 规模再试。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recommended: %1 %2, %3 × %4 in %5&lt;/b&gt; — about %6 (%7 to %8), %9</source>
        <translation>&lt;b&gt;推荐：%1 %2，%3 × %4，地域 %5&lt;/b&gt; —— 约 %6（%7 至 %8），耗时 %9</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Excluded offers: %1</source>
        <translation>已排除的方案：%1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;GPU:&lt;/b&gt; %1 × %2, %3 server(s); peak %4 TFLOPS (%5)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;GPU：&lt;/b&gt;%1 × %2，%3 台服务器；峰值 %4 TFLOPS（%5）&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Efficiency:&lt;/b&gt; %1 % (%2 to %3 %), from %4&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;效率：&lt;/b&gt;%1%（%2% 至 %3%），依据：%4&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Scaling:&lt;/b&gt; %1 % of linear&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;扩展效率：&lt;/b&gt;线性扩展的 %1%&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Cost:&lt;/b&gt; compute %1, storage %2, data transfer %3&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;成本：&lt;/b&gt;计算 %1，存储 %2，数据传输 %3&lt;/p&gt;</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>What if</source>
        <translation>假设分析</translation>
    </message>
    <message>
        <source>Filter by provider, instance, GPU or region</source>
        <translation>按云厂商、实例、GPU 或地域筛选</translation>
    </message>
    <message>
        <source>Re-plans with this budget; the right end is no limit.</source>
        <translation>按该预算重新规划；拖到最右端表示不限预算。</translation>
    </message>
    <message>
        <source>Re-plans with this deadline; the right end is none.</source>
        <translation>按该截止时间重新规划；拖到最右端表示不设截止时间。</translation>
    </message>
    <message>
        <source>Re-plans with at least this many GPUs.</source>
        <translation>以不少于该数量的 GPU 重新规划。</translation>
    </message>
    <message>
        <source>Runs this share of the work on spot and the rest on demand, for offers with both prices.</source>
        <translation>对同时有竞价和按量价格的方案，按该比例把训练量放在竞价实例上跑，其余部分用按量付费实例。</translation>
    </message>
    <message>
        <source>Re-plans with this CNY per USD rate instead of the catalog&apos;s.</source>
        <translation>用这里设置的 USD 兑 CNY 汇率代替目录汇率，重新规划。</translation>
    </message>
    <message>
        <source>Offer</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Why it was left out</source>
        <translation>排除原因</translation>
    </message>
    <message>
        <source>Framework not supported</source>
        <translation>不支持所选框架</translation>
    </message>
    <message>
        <source>Not for sensitive data</source>
        <translation>不适合存放敏感数据</translation>
    </message>
    <message>
        <source>Cannot be estimated</source>
        <translation>无法估算</translation>
    </message>
    <message>
        <source>Does not fit in memory</source>
        <translation>显存放不下</translation>
    </message>
    <message>
        <source>Needs several servers</source>
        <translation>需要多台服务器</translation>
    </message>
    <message>
        <source>Several servers without RDMA</source>
        <translation>多机但没有 RDMA</translation>
    </message>
    <message>
        <source>No published price</source>
        <translation>没有公开价格</translation>
    </message>
    <message>
        <source>Misses the deadline</source>
        <translation>赶不上截止时间</translation>
    </message>
    <message>
        <source>Over the budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>No pricing mode left</source>
        <translation>没有可选的计费方式</translation>
    </message>
    <message>
        <source>Outside the chosen regions</source>
        <translation>不在所选地区</translation>
    </message>
    <message>
        <source>; commits the lab to %1</source>
        <translation>；课题组需承诺支出 %1</translation>
    </message>
    <message>
        <source>, a commitment of %1</source>
        <translation>，需承诺支出 %1</translation>
    </message>
    <message>
        <source>source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Software stack:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;软件栈：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Limited by:&lt;/b&gt; %1 (one GPU&apos;s time: compute %2 %, memory %3 %, host %4 %)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;瓶颈：&lt;/b&gt;%1（单卡时间占比：计算 %2%，显存访问 %3%，主机侧 %4%）&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Range:&lt;/b&gt; the published figure fell inside such a range about 80 % of the time when each source was held out of the fit&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;区间：&lt;/b&gt;交叉验证时把每个来源排除在拟合之外，公开结果约有 80% 落在这样的区间内&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Rests on your own measurement&lt;/b&gt; of this workload on this GPU family.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;依据了你自己的实测数据&lt;/b&gt;（同一任务、同系列 GPU）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Throughput:&lt;/b&gt; %1 %2; training %3, setup %4, upload %5, checkpoints %6&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;吞吐：&lt;/b&gt;%1 %2；训练 %3，环境准备 %4，数据上传 %5，保存检查点 %6&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;GPU figures:&lt;/b&gt; third-party or derived, low confidence: the vendor publishes no datasheet for this GPU&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;GPU 参数：&lt;/b&gt;来自第三方或推算，可信度低：厂商没有公开这款 GPU 的规格书&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Prices&lt;/b&gt; (source, the date each price is valid for):&lt;/p&gt;&lt;ul&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;价格&lt;/b&gt;（来源、价格日期）：&lt;/p&gt;&lt;ul&gt;</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>未注明日期</translation>
    </message>
    <message>
        <source>as of %1</source>
        <translation>价格日期 %1</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::CostsPage</name>
    <message>
        <source>Cost by option</source>
        <translation>方案成本</translation>
    </message>
    <message>
        <source>Time vs cost</source>
        <translation>时间与成本</translation>
    </message>
    <message>
        <source>Rent vs buy</source>
        <translation>租用与自购</translation>
    </message>
    <message>
        <source>Spot: time</source>
        <translation>竞价：用时</translation>
    </message>
    <message>
        <source>Spot: cost</source>
        <translation>竞价：成本</translation>
    </message>
    <message>
        <source>Price per TFLOPS</source>
        <translation>TFLOPS 单价</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::CountryPicker</name>
    <message>
        <source>Anywhere</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Mainland China</source>
        <translation>中国内地</translation>
    </message>
    <message>
        <source>Mainland China and Hong Kong</source>
        <translation>中国内地和香港</translation>
    </message>
    <message>
        <source>United States</source>
        <translation>美国</translation>
    </message>
    <message>
        <source>Europe (EU, EEA, UK, Switzerland)</source>
        <translation>欧洲（欧盟、欧洲经济区、英国、瑞士）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a country code: write two letters, e.g. CN, HK, SG.</source>
        <translation>“%1”不是国家/地区代码，请写两个字母，例如 CN、HK、SG。</translation>
    </message>
    <message>
        <source>Other countries…</source>
        <translation>其他国家/地区…</translation>
    </message>
    <message>
        <source>Where the run may go. Regions elsewhere are left out of the plan, each with the reason; so is a region whose country the catalog does not give.</source>
        <translation>训练任务可以放在哪里。其他地方的地域会被排除并注明原因；目录没有注明国家/地区的地域也会被排除。</translation>
    </message>
    <message>
        <source>anywhere</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>ISO country codes, separated by commas: CN for mainland China, HK, SG, JP, US, DE...</source>
        <translation>ISO 国家/地区代码，用逗号分隔：CN 表示中国内地，另有 HK、SG、JP、US、DE 等</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::CredentialDialog</name>
    <message>
        <source>IAM console &gt; Users &gt; your user &gt; Security credentials &gt; Access keys.</source>
        <translation>IAM 控制台 &gt; 用户 &gt; 你的用户 &gt; 安全凭证 &gt; 访问密钥。</translation>
    </message>
    <message>
        <source>CAM console &gt; API Key Management (SecretId and SecretKey).</source>
        <translation>访问管理（CAM）控制台 &gt; API 密钥管理（SecretId 和 SecretKey）。</translation>
    </message>
    <message>
        <source>RAM console &gt; Users &gt; your user &gt; AccessKey.</source>
        <translation>RAM 访问控制台 &gt; 用户 &gt; 你的用户 &gt; AccessKey。</translation>
    </message>
    <message>
        <source>IAM &amp; Admin &gt; Service Accounts &gt; your account &gt; Keys &gt; Add key &gt; JSON.</source>
        <translation>IAM 和管理 &gt; 服务账号 &gt; 你的账号 &gt; 密钥 &gt; 添加密钥 &gt; JSON。</translation>
    </message>
    <message>
        <source>Microsoft Entra ID &gt; App registrations &gt; your app: the tenant and client IDs on its overview, a client secret under Certificates &amp; secrets.</source>
        <translation>Microsoft Entra ID &gt; 应用注册 &gt; 你的应用：租户 ID 和客户端 ID 在“概述”页，客户端密码在“证书和密码”中。</translation>
    </message>
    <message>
        <source>Lambda Cloud dashboard &gt; API keys.</source>
        <translation>Lambda Cloud 控制台 &gt; API keys。</translation>
    </message>
    <message>
        <source>Paperspace console &gt; Team settings &gt; API keys.</source>
        <translation>Paperspace 控制台 &gt; Team settings &gt; API keys。</translation>
    </message>
    <message>
        <source>The project the instances are launched in. Not secret.</source>
        <translation>实例所在的项目。不属于机密。</translation>
    </message>
    <message>
        <source>The Azure subscription billed for the instances (optional). Not secret.</source>
        <translation>为实例计费的 Azure 订阅（可选）。不属于机密。</translation>
    </message>
    <message>
        <source>The directory (tenant) of the app registration. Not secret.</source>
        <translation>应用注册所属的目录（租户）。不属于机密。</translation>
    </message>
    <message>
        <source>The public half of the credential. The list shows it masked.</source>
        <translation>凭据中公开的那一部分，列表中会打码显示。</translation>
    </message>
    <message>
        <source>Kept in the system keychain (or the encrypted file), never in the settings, a plan or a report.</source>
        <translation>保存在系统钥匙串（或加密文件）中，绝不会写入设置、规划文件或报告。</translation>
    </message>
    <message>
        <source>Not secret.</source>
        <translation>不属于机密。</translation>
    </message>
    <message>
        <source>SecretId</source>
        <translation>SecretId</translation>
    </message>
    <message>
        <source>AccessKey ID</source>
        <translation>AccessKey ID</translation>
    </message>
    <message>
        <source>Access key ID (AK)</source>
        <translation>访问密钥 ID（AK）</translation>
    </message>
    <message>
        <source>Access key ID</source>
        <translation>访问密钥 ID</translation>
    </message>
    <message>
        <source>SecretKey</source>
        <translation>SecretKey</translation>
    </message>
    <message>
        <source>AccessKey secret</source>
        <translation>AccessKey Secret</translation>
    </message>
    <message>
        <source>Secret access key (SK)</source>
        <translation>秘密访问密钥（SK）</translation>
    </message>
    <message>
        <source>Secret access key</source>
        <translation>秘密访问密钥</translation>
    </message>
    <message>
        <source>Project ID</source>
        <translation>项目 ID</translation>
    </message>
    <message>
        <source>Service account e-mail</source>
        <translation>服务账号邮箱</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Private key ID</source>
        <translation>私钥 ID</translation>
    </message>
    <message>
        <source>Tenant ID</source>
        <translation>租户 ID</translation>
    </message>
    <message>
        <source>Client (application) ID</source>
        <translation>客户端（应用程序）ID</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>客户端密码</translation>
    </message>
    <message>
        <source>Subscription ID</source>
        <translation>订阅 ID</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>%1 credentials</source>
        <translation>%1 凭据</translation>
    </message>
    <message>
        <source>Where to find them: %1</source>
        <translation>在哪里获取：%1</translation>
    </message>
    <message>
        <source>service-account key file (.json)</source>
        <translation>服务账号密钥文件（.json）</translation>
    </message>
    <message>
        <source>The JSON key file of a service account. Its private key is kept in the system keychain (or the encrypted file); the file itself is not changed or copied.</source>
        <translation>服务账号的 JSON 密钥文件。其中的私钥会保存在系统钥匙串（或加密文件）中；文件本身不会被修改或复制。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Choose the service-account key file</source>
        <translation>选择服务账号密钥文件</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>密钥文件</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Store the credential, replacing the one stored before</source>
        <translation>保存凭据，替换之前保存的凭据</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Service-account key file</source>
        <translation>服务账号密钥文件</translation>
    </message>
    <message>
        <source>JSON key files (*.json);;All files (*)</source>
        <translation>JSON 密钥文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose the key file.</source>
        <translation>请选择密钥文件。</translation>
    </message>
    <message>
        <source>Cannot read the key file %1.</source>
        <translation>无法读取密钥文件 %1。</translation>
    </message>
    <message>
        <source>%1 is missing.</source>
        <translation>缺少%1。</translation>
    </message>
    <message>
        <source>%1 is not a service-account key file (%2).</source>
        <translation>%1 不是服务账号密钥文件（%2）。</translation>
    </message>
    <message>
        <source>My Credentials &gt; Access Keys (AK and SK); the project IDs of your regions (optional) are under API Credentials.</source>
        <translation>我的凭证 &gt; 访问密钥（AK 和 SK）；各区域的项目 ID（选填）在“API 凭证”下。</translation>
    </message>
    <message>
        <source>Optional. A project belongs to one region: give one ID, or several as region:ID pairs separated by commas (cn-north-4:0a1b…,cn-east-3:2c3d…). Left empty, GPU Planner asks IAM for each region&apos;s project. Not secret.</source>
        <translation>选填。一个项目只属于一个区域：可以填一个 ID，也可以用逗号分隔多个“区域:ID”（cn-north-4:0a1b…,cn-east-3:2c3d…）。留空时，GPU Planner 会向 IAM 查询每个区域的项目。不是机密信息。</translation>
    </message>
    <message>
        <source>Project IDs (optional)</source>
        <translation>项目 ID（选填）</translation>
    </message>
    <message>
        <source>Azure ML workspace (resource group/name, optional)</source>
        <translation>Azure ML 工作区（资源组/名称，可选）</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::CredentialsPage</name>
    <message>
        <source>System keychain</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <source>Encrypted file</source>
        <translation>加密文件</translation>
    </message>
    <message>
        <source>Cancelled: no passphrase was given.</source>
        <translation>已取消：未输入口令。</translation>
    </message>
    <message>
        <source>The keys GPU Planner uses to launch and stop instances at each provider. Secrets are kept in the system keychain; the settings keep only the provider and a masked key ID, and no secret ever goes into a plan, a report or a log.</source>
        <translation>GPU Planner 在各云厂商创建和停止实例时使用的密钥。机密信息保存在系统钥匙串中；设置里只记录云厂商和打码后的密钥 ID，任何机密都不会写入规划文件、报告或日志。</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Key ID</source>
        <translation>密钥 ID</translation>
    </message>
    <message>
        <source>Stored in</source>
        <translation>保存位置</translation>
    </message>
    <message>
        <source>The cloud provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>The public key ID, masked; for an API key alone, a short fingerprint of it</source>
        <translation>打码后的公开密钥 ID；只有 API 密钥时显示其简短指纹</translation>
    </message>
    <message>
        <source>Where the secret is kept</source>
        <translation>机密的保存位置</translation>
    </message>
    <message>
        <source>Double-click a provider to set its credential</source>
        <translation>双击云厂商即可设置其凭据</translation>
    </message>
    <message>
        <source>Set…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Enter the selected provider&apos;s credential; it replaces the one stored before</source>
        <translation>输入所选云厂商的凭据，将替换之前保存的凭据</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove the selected provider&apos;s credential from wherever it is kept</source>
        <translation>从保存位置删除所选云厂商的凭据</translation>
    </message>
    <message>
        <source>Credentials are kept in the encrypted file %1 (as configured), locked with a passphrase you choose.</source>
        <translation>按当前配置，凭据保存在加密文件 %1 中，由你设置的口令保护。</translation>
    </message>
    <message>
        <source>The system keychain is not available here (%1). Credentials are kept in the encrypted file %2 instead, locked with a passphrase you choose.</source>
        <translation>本机的系统钥匙串不可用（%1）。凭据改为保存在加密文件 %2 中，由你设置的口令保护。</translation>
    </message>
    <message>
        <source>Credentials are kept in the system keychain under the service &quot;gpuplanner&quot;.</source>
        <translation>凭据保存在系统钥匙串中，服务名为“gpuplanner”。</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
    <message>
        <source>The %1 credential was not stored. %2</source>
        <translation>未能保存%1凭据。%2</translation>
    </message>
    <message>
        <source>The %1 credential is stored in the system keychain.</source>
        <translation>%1凭据已保存到系统钥匙串。</translation>
    </message>
    <message>
        <source>The %1 credential is stored in the encrypted file %2.</source>
        <translation>%1凭据已保存到加密文件 %2。</translation>
    </message>
    <message>
        <source>Remove the credential</source>
        <translation>删除凭据</translation>
    </message>
    <message>
        <source>Remove the %1 credential? GPU Planner can then no longer launch or stop instances there until it is set again. The key itself stays valid at the provider; revoke it in the provider&apos;s console if it should not be used any more.</source>
        <translation>确定删除%1凭据吗？删除后，在重新设置之前 GPU Planner 将无法在该云厂商创建或停止实例。密钥本身在云厂商那里仍然有效；如果不再使用，请到云厂商控制台将其禁用或删除。</translation>
    </message>
    <message>
        <source>The %1 credential is removed.</source>
        <translation>%1凭据已删除。</translation>
    </message>
    <message>
        <source>The %1 credential was not removed. %2</source>
        <translation>未能删除%1凭据。%2</translation>
    </message>
    <message>
        <source>Passphrase of the credentials file</source>
        <translation>凭据文件的口令</translation>
    </message>
    <message>
        <source>No keychain service is available here, so the credentials are kept in an encrypted file:
%1

Choose a passphrase for it. It cannot be recovered: without it the credentials have to be set again.</source>
        <translation>本机没有可用的钥匙串服务，凭据将保存在加密文件中：
%1

请为它设置一个口令。口令无法找回：忘记口令后只能重新设置凭据。</translation>
    </message>
    <message>
        <source>Enter the passphrase of the encrypted credentials file:
%1</source>
        <translation>请输入加密凭据文件的口令：
%1</translation>
    </message>
    <message>
        <source>Remembered until the program closes, never saved</source>
        <translation>程序关闭前会记住，但不会保存到磁盘</translation>
    </message>
    <message>
        <source>the same passphrase again</source>
        <translation>再次输入同一口令</translation>
    </message>
    <message>
        <source>Type the passphrase again, to be sure of it</source>
        <translation>再输入一遍口令，以免输错</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::InstanceTableModel</name>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>recorded, not sent</source>
        <translation>已记账，未发送</translation>
    </message>
    <message>
        <source>requested, no answer yet</source>
        <translation>已请求，尚无回应</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>创建中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>stopped (may still bill)</source>
        <translation>已关机（可能仍在计费）</translation>
    </message>
    <message>
        <source>terminated</source>
        <translation>已销毁</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Found running at the provider by reconciliation; it was not recorded by a launch.</source>
        <translation>对账时在云厂商处发现它在运行，但启动时没有记账。</translation>
    </message>
    <message>
        <source> (adopted)</source>
        <translation>（对账补录）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Zone</source>
        <translation>可用区</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>Pricing</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Instance ID</source>
        <translation>实例 ID</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>已运行</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>已花费</translation>
    </message>
    <message>
        <source>Dead-man in</source>
        <translation>距自动关机</translation>
    </message>
    <message>
        <source>job queued</source>
        <translation>作业排队中</translation>
    </message>
    <message>
        <source>job running</source>
        <translation>作业运行中</translation>
    </message>
    <message>
        <source>job being cancelled</source>
        <translation>作业取消中</translation>
    </message>
    <message>
        <source>job finished</source>
        <translation>作业已完成</translation>
    </message>
    <message>
        <source>job cancelled</source>
        <translation>作业已取消</translation>
    </message>
    <message>
        <source>job failed</source>
        <translation>作业失败</translation>
    </message>
    <message>
        <source>job ended</source>
        <translation>作业已结束</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::InstancesPage</name>
    <message>
        <source>Every instance launched from this computer, from the ledger. Costs accrue from the price at launch. Reconcile asks the providers what really runs.</source>
        <translation>本机启动过的所有实例，数据来自账本。费用按启动时的价格累计。“立即对账”会向云厂商核实实际在跑的实例。</translation>
    </message>
    <message>
        <source>Show ended</source>
        <translation>显示已结束的</translation>
    </message>
    <message>
        <source>Reconcile now</source>
        <translation>立即对账</translation>
    </message>
    <message>
        <source>Terminate…</source>
        <translation>销毁…</translation>
    </message>
    <message>
        <source>Terminate all…</source>
        <translation>全部销毁…</translation>
    </message>
    <message>
        <source>The ledger cannot be read. %1</source>
        <translation>无法读取账本。%1</translation>
    </message>
    <message>
        <source>Nothing is running.</source>
        <translation>当前没有在运行的实例。</translation>
    </message>
    <message numerus="yes">
        <source>%n instance(s) live; cost so far %1.</source>
        <translation>
            <numerusform>%n 个实例在运行，已花费 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Asking the providers…</source>
        <translation>正在向云厂商核实…</translation>
    </message>
    <message>
        <source>The ledger names no provider: there is nothing to reconcile.</source>
        <translation>账本里没有任何云厂商的记录，无需对账。</translation>
    </message>
    <message>
        <source>Not reconciled with %1: %2</source>
        <translation>未能与 %1 对账：%2</translation>
    </message>
    <message>
        <source>Reconciled: the ledger agrees with the providers.</source>
        <translation>对账完成：账本与云厂商一致。</translation>
    </message>
    <message>
        <source>entry %1</source>
        <translation>记录 %1</translation>
    </message>
    <message numerus="yes">
        <source>Terminate %n instance(s)? Their disks are deleted with them: %1</source>
        <translation>
            <numerusform>确定销毁 %n 个实例？其磁盘会一并删除：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>Terminating %1…</source>
        <translation>正在销毁 %1…</translation>
    </message>
    <message>
        <source>Entry %1 was NOT terminated: %2</source>
        <translation>记录 %1 未能销毁：%2</translation>
    </message>
    <message numerus="yes">
        <source>Asked the provider to terminate %n instance(s).</source>
        <translation>
            <numerusform>已请求云厂商销毁 %n 个实例。</numerusform>
        </translation>
    </message>
    <message>
        <source>Verify GPU…</source>
        <translation>验证 GPU…</translation>
    </message>
    <message>
        <source>Prove over SSH that the selected instance&apos;s GPUs are what was paid for.</source>
        <translation>通过 SSH 验证所选实例的 GPU 是否与付费配置相符。</translation>
    </message>
    <message>
        <source>Log of job %1 on %2, read from the service…</source>
        <translation>作业 %1（%2）的日志，正在从服务读取…</translation>
    </message>
    <message>
        <source>The log cannot be read: %1</source>
        <translation>无法读取日志：%1</translation>
    </message>
    <message>
        <source>Log of job %1 on %2; the job has ended (%3).</source>
        <translation>作业 %1（%2）的日志；作业已结束（%3）。</translation>
    </message>
    <message>
        <source>Log of job %1 on %2 (%3), read again every %4 s.</source>
        <translation>作业 %1（%2）的日志（%3），每 %4 秒刷新一次。</translation>
    </message>
    <message>
        <source>Run on this instance…</source>
        <translation>在此实例上运行…</translation>
    </message>
    <message>
        <source>Sync your code to the selected instance, start the training and watch it live.</source>
        <translation>把代码同步到所选实例，启动训练并实时查看。</translation>
    </message>
    <message>
        <source>The results of run %1 are not downloaded yet: terminating loses them. Bring them home first on the Run page.</source>
        <translation>运行 %1 的结果还没有下载：释放实例会把它们一起删掉。请先在“运行训练”页把结果下载回来。</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::LaunchPage</name>
    <message>
        <source>Recorded in the ledger, request sent</source>
        <translation>已写入账本，请求已发出</translation>
    </message>
    <message>
        <source>Accepted: the instance is pending</source>
        <translation>已受理：实例创建中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>SSH reachable</source>
        <translation>SSH 可连接</translation>
    </message>
    <message>
        <source>SSH public key</source>
        <translation>SSH 公钥</translation>
    </message>
    <message>
        <source>Public keys (*.pub);;All files (*)</source>
        <translation>公钥 (*.pub);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cancelling… What was already sent is in the ledger; reconcile on the Instances page.</source>
        <translation>正在取消… 已发出的请求都记在账本里，请到“实例”页对账。</translation>
    </message>
    <message>
        <source>No plan is open: type the offer, or open a plan to launch its choice.</source>
        <translation>没有打开的方案：可以直接填写实例规格，或打开一个方案按其推荐启动。</translation>
    </message>
    <message>
        <source>Offer</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>访问</translation>
    </message>
    <message>
        <source>Guards against forgotten instances</source>
        <translation>防止忘记关机</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>云厂商：</translation>
    </message>
    <message>
        <source>Instance type:</source>
        <translation>实例规格：</translation>
    </message>
    <message>
        <source>Region:</source>
        <translation>地域：</translation>
    </message>
    <message>
        <source>Zone:</source>
        <translation>可用区：</translation>
    </message>
    <message>
        <source>Pricing:</source>
        <translation>计费方式：</translation>
    </message>
    <message>
        <source>Subscription:</source>
        <translation>包年包月：</translation>
    </message>
    <message>
        <source>Price:</source>
        <translation>价格：</translation>
    </message>
    <message>
        <source>Image:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <source>SSH public key:</source>
        <translation>SSH 公钥：</translation>
    </message>
    <message>
        <source>Open SSH to:</source>
        <translation>SSH 放行地址：</translation>
    </message>
    <message>
        <source>SSH port:</source>
        <translation>SSH 端口：</translation>
    </message>
    <message>
        <source>Dead-man switch:</source>
        <translation>自动关机：</translation>
    </message>
    <message>
        <source>Idle shutdown:</source>
        <translation>空闲关机：</translation>
    </message>
    <message>
        <source>Budget of the plan:</source>
        <translation>方案预算：</translation>
    </message>
    <message>
        <source>Any zone: each one that offers the type is tried until one has capacity</source>
        <translation>任意可用区：依次尝试有该规格的可用区，直到有库存</translation>
    </message>
    <message>
        <source>On demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>Spot (may be interrupted)</source>
        <translation>竞价实例（可能被回收）</translation>
    </message>
    <message>
        <source>Monthly subscription (prepaid)</source>
        <translation>包年包月（预付）</translation>
    </message>
    <message>
        <source> month(s)</source>
        <translation> 个月</translation>
    </message>
    <message>
        <source>Renew automatically at the end</source>
        <translation>到期自动续费</translation>
    </message>
    <message>
        <source>catalog price</source>
        <translation>目录价</translation>
    </message>
    <message>
        <source>Your own price per hour (per month for a subscription), in the provider&apos;s currency, for a negotiated rate or one the catalog does not have.</source>
        <translation>自填每小时价格（包年包月填每月价格），按云厂商的币种，用于协议价或目录里没有的价格。</translation>
    </message>
    <message>
        <source>The provider&apos;s current GPU deep-learning image</source>
        <translation>云厂商当前的 GPU 深度学习镜像</translation>
    </message>
    <message>
        <source>~/.ssh/id_ed25519.pub, else ~/.ssh/id_rsa.pub</source>
        <translation>~/.ssh/id_ed25519.pub，没有则用 ~/.ssh/id_rsa.pub</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>This computer&apos;s public address, found when you launch</source>
        <translation>本机公网地址，启动时自动获取</translation>
    </message>
    <message>
        <source>Off: it bills until you terminate it</source>
        <translation>关闭：不手动销毁就一直计费</translation>
    </message>
    <message>
        <source> h after start</source>
        <translation> 小时后（从开机算）</translation>
    </message>
    <message>
        <source>The instance shuts itself down (and so stops billing) this many hours after it starts. The default is the plan&apos;s high estimate plus a quarter and an hour.</source>
        <translation>实例开机后过这么多小时自动关机（随即停止计费）。默认值为方案的保守估计时长再加四分之一和一小时。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>after </source>
        <translation>持续 </translation>
    </message>
    <message>
        <source>below </source>
        <translation>低于 </translation>
    </message>
    <message>
        <source> % GPU use</source>
        <translation> % GPU 利用率</translation>
    </message>
    <message>
        <source>None</source>
        <translation>不设</translation>
    </message>
    <message>
        <source>Terminate the plan&apos;s instances once it has spent its budget</source>
        <translation>方案花完预算后自动销毁其实例</translation>
    </message>
    <message>
        <source>Dry run: only check that the launch would succeed</source>
        <translation>预检（Dry run）：只检查能否启动，不真正创建</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>启动…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>From the plan: %1 on %2 in %3, %4. The dead-man default is the plan&apos;s high estimate (%5) with a margin.</source>
        <translation>来自方案：%2 的 %1，地域 %3，%4。自动关机默认按方案的保守估计（%5）再留余量。</translation>
    </message>
    <message>
        <source>%1 cannot do this: %2</source>
        <translation>%1 不支持：%2</translation>
    </message>
    <message>
        <source>The catalog is loading…</source>
        <translation>正在加载价格目录…</translation>
    </message>
    <message>
        <source>Unknown: the catalog has no such price. Enter your own to launch.</source>
        <translation>未知：目录里没有这个价格，请自填价格后再启动。</translation>
    </message>
    <message>
        <source>%1 a month (catalog)</source>
        <translation>每月 %1（目录价）</translation>
    </message>
    <message>
        <source>%1 an hour (catalog)</source>
        <translation>每小时 %1（目录价）</translation>
    </message>
    <message>
        <source>The catalog is not loaded yet.</source>
        <translation>价格目录还没加载完。</translation>
    </message>
    <message>
        <source>The watchdog script is missing from this installation: %1</source>
        <translation>安装包里缺少看门狗脚本：%1</translation>
    </message>
    <message>
        <source>Reading the key and finding this computer&apos;s address…</source>
        <translation>正在读取公钥并获取本机公网地址…</translation>
    </message>
    <message>
        <source>Reading the key…</source>
        <translation>正在读取公钥…</translation>
    </message>
    <message>
        <source>Not launched. %1</source>
        <translation>未启动。%1</translation>
    </message>
    <message>
        <source>Not launched.</source>
        <translation>未启动。</translation>
    </message>
    <message>
        <source>Loading the %1 credential…</source>
        <translation>正在读取 %1 的访问密钥…</translation>
    </message>
    <message>
        <source>Not launched: no usable %1 credential (set one on the Credentials page). %2</source>
        <translation>未启动：没有可用的 %1 访问密钥（请到“凭据”页设置）。%2</translation>
    </message>
    <message>
        <source>Checking the launch with the provider…</source>
        <translation>正在让云厂商预检这次启动…</translation>
    </message>
    <message>
        <source>Launching…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Check the launch?</source>
        <translation>预检这次启动？</translation>
    </message>
    <message>
        <source>Launch this instance?</source>
        <translation>启动这台实例？</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>预检</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>%1 has no capacity; trying the next zone.</source>
        <translation>%1 库存不足，正在尝试下一个可用区。</translation>
    </message>
    <message>
        <source>The launch failed. %1</source>
        <translation>启动失败。%1</translation>
    </message>
    <message>
        <source>The provider says the launch would succeed; nothing was started.</source>
        <translation>云厂商确认可以启动；本次没有创建任何实例。</translation>
    </message>
    <message>
        <source>Dry run done; nothing was started.</source>
        <translation>预检完成；没有创建任何实例。</translation>
    </message>
    <message>
        <source>%1 is %2 (ledger entry %3).</source>
        <translation>%1 状态：%2（账本记录 %3）。</translation>
    </message>
    <message>
        <source>Verify it with: gpuplan probe --host USER@%1</source>
        <translation>可用以下命令验证：gpuplan probe --host USER@%1</translation>
    </message>
    <message>
        <source>The plan has used 80 % or more of its budget.</source>
        <translation>该方案已用掉预算的 80% 以上。</translation>
    </message>
    <message>
        <source>%1 cannot launch %2: %3</source>
        <translation>%1 无法以%2方式开机：%3</translation>
    </message>
    <message>
        <source>a %1 price is a reservation bought from the provider for a term; GPU Planner launches on demand, spot or monthly</source>
        <translation>%1 价格是向云厂商按期限购买的预留实例；GPU Planner 只能以按量付费、竞价或包月方式开机</translation>
    </message>
    <message>
        <source>GPU Planner launches on %1 only</source>
        <translation>GPU Planner 目前只支持在%1上开机</translation>
    </message>
    <message>
        <source>Nothing in this plan can be launched by GPU Planner (%1). Type an offer below to launch one under the plan&apos;s budget.</source>
        <translation>这份规划里没有 GPU Planner 能开的机型（%1）。可以在下面手动填写机型，在规划预算内开机。</translation>
    </message>
    <message>
        <source>The plan&apos;s choice, option %1: %2 on %3 in %4, cannot be launched by GPU Planner yet (%5); offering option %6: %7 on %8 in %9, the best-ranked one it can launch.</source>
        <translation>规划推荐的方案 %1（%3 %4 的 %2）GPU Planner 暂时开不了（%5）；改为提供方案 %6：%8 %9 的 %7，这是能开的方案里排名最高的。</translation>
    </message>
    <message>
        <source>The dead-man default is its high estimate (%1) with a margin.</source>
        <translation>自动关机默认按预计用时的上限（%1）再留些余量。</translation>
    </message>
    <message>
        <source>Asking %1 for its current price…</source>
        <translation>正在向%1查询当前价格…</translation>
    </message>
    <message>
        <source>SSH (TCP 22) is opened to this address or range only, for example 203.0.113.7 or 203.0.113.0/24.</source>
        <translation>SSH（TCP 22 端口）只对这个地址或网段开放，例如 203.0.113.7 或 203.0.113.0/24。</translation>
    </message>
    <message>
        <source>Cancelling… Nothing has been launched.</source>
        <translation>正在取消……还没有启动任何实例。</translation>
    </message>
    <message>
        <source>Not launched: cancelled before anything was sent.</source>
        <translation>未启动：在发出任何请求之前已取消。</translation>
    </message>
    <message>
        <source>Could not look up this computer&apos;s public address (%1); the dry run checks the launch with %2 (a documentation address, RFC 5737) in its place.</source>
        <translation>查不到本机的公网地址（%1）；试运行改用 %2（RFC 5737 规定的文档示例地址）来检查这次启动。</translation>
    </message>
    <message>
        <source>%1. Type the address in &quot;Open SSH to&quot;.</source>
        <translation>%1。请在“SSH 放行地址”中填写地址。</translation>
    </message>
    <message>
        <source>%1. Choose the key file in &quot;SSH public key&quot;.</source>
        <translation>%1。请在“SSH 公钥”中选择密钥文件。</translation>
    </message>
    <message>
        <source>Spot price limit:</source>
        <translation>竞价上限：</translation>
    </message>
    <message>
        <source>none: the market price, at most the on-demand price</source>
        <translation>不设：按市场价，最高不超过按量价格</translation>
    </message>
    <message>
        <source>The most a spot instance may cost per hour, in the provider&apos;s currency; the provider may reclaim the instance when its price goes above.</source>
        <translation>竞价实例每小时最多愿意付的价格（云厂商的币种）；市场价高于它时，云厂商可能回收实例。</translation>
    </message>
    <message>
        <source>Service:</source>
        <translation>服务类型：</translation>
    </message>
    <message>
        <source>Container image:</source>
        <translation>容器镜像：</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Environment:</source>
        <translation>环境变量：</translation>
    </message>
    <message>
        <source>Managed job</source>
        <translation>托管作业</translation>
    </message>
    <message>
        <source>Virtual machine (you log in over SSH)</source>
        <translation>云服务器（通过 SSH 登录）</translation>
    </message>
    <message>
        <source>The container image the job runs in, e.g. a PyTorch image of your registry</source>
        <translation>作业运行所用的容器镜像，例如你镜像仓库里的 PyTorch 镜像</translation>
    </message>
    <message>
        <source>What the container runs, e.g. python train.py --epochs 3</source>
        <translation>容器要运行的命令，例如 python train.py --epochs 3</translation>
    </message>
    <message>
        <source>NAME=VALUE, one a line (optional)</source>
        <translation>NAME=VALUE，每行一个（可选）</translation>
    </message>
    <message>
        <source>Managed job on %1 (no machine to look after)</source>
        <translation>%1 托管作业（不用自己管机器）</translation>
    </message>
    <message>
        <source>Managed job (none on %1)</source>
        <translation>托管作业（%1 不提供）</translation>
    </message>
    <message>
        <source>%1 has no managed training service that GPU Planner submits to; Google Cloud (Vertex AI) and Azure (Azure Machine Learning) have one.</source>
        <translation>%1 没有 GPU Planner 能提交作业的托管训练服务；谷歌云（Vertex AI）和 Azure（Azure Machine Learning）有。</translation>
    </message>
    <message>
        <source>Submit job…</source>
        <translation>提交作业…</translation>
    </message>
    <message>
        <source>Off: not allowed for a job</source>
        <translation>关闭：托管作业不允许</translation>
    </message>
    <message>
        <source> h (the job&apos;s timeout)</source>
        <translation> 小时（作业超时）</translation>
    </message>
    <message>
        <source>Recorded in the ledger, job submitted</source>
        <translation>已记入账本，作业已提交</translation>
    </message>
    <message>
        <source>Accepted: the job is queued</source>
        <translation>已受理：作业排队中</translation>
    </message>
    <message>
        <source>Submit this job?</source>
        <translation>提交这个作业？</translation>
    </message>
    <message>
        <source>Submit</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>Job %1 is %2 (ledger entry %3). Follow its log on the Instances page.</source>
        <translation>作业 %1 状态：%2（账本条目 %3）。可在“实例管理”页查看日志。</translation>
    </message>
    <message>
        <source>Launch one instance, or submit one managed training job, through the provider&apos;s API. It is written to the ledger before the request goes out, so nothing launched is ever lost, and its dead-man switch ends it when it is forgotten.</source>
        <translation>通过云厂商的 API 启动一台实例，或提交一个托管训练作业。请求发出前先写入账本，启动过的实例和作业都不会丢；忘了关也有自动关机兜底。</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::LaunchText</name>
    <message>
        <source>Recorded the launch in the ledger (entry %1, token %2)</source>
        <translation>已在账本中记下这次启动（条目 %1，令牌 %2）</translation>
    </message>
    <message>
        <source>Resuming the launch recorded at entry %1 with its token %2: it was interrupted before its answer was recorded</source>
        <translation>继续条目 %1 记下的启动，沿用其令牌 %2：上次在记下云厂商回复之前被中断</translation>
    </message>
    <message>
        <source>The launch recorded at entry %1 did start %2 (found by reconciling after its outcome was unknown): that is this launch, no second one</source>
        <translation>条目 %1 记下的启动确实启动了 %2（结果未知后经对账找到）：这就是本次启动的实例，不会再开第二台</translation>
    </message>
    <message>
        <source>Asking %1 for %2 in %3</source>
        <translation>正在向 %1 申请 %3 的 %2</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>被拒绝：%1</translation>
    </message>
    <message>
        <source>Accepted: %1</source>
        <translation>已受理：%1</translation>
    </message>
    <message>
        <source>No capacity in %1</source>
        <translation>%1 没有余量</translation>
    </message>
    <message>
        <source>%1 is starting in %2</source>
        <translation>%1 正在 %2 启动</translation>
    </message>
    <message>
        <source>%1 runs</source>
        <translation>%1 已运行</translation>
    </message>
    <message>
        <source>%1 runs at %2</source>
        <translation>%1 已运行，地址 %2</translation>
    </message>
    <message>
        <source>SSH answers at %1:%2</source>
        <translation>SSH 已可连接：%1:%2</translation>
    </message>
    <message>
        <source>Image %1 (as given)</source>
        <translation>镜像 %1（按指定使用）</translation>
    </message>
    <message>
        <source>Image %1 (%2, %3), the newest AWS Deep Learning Base GPU AMI</source>
        <translation>镜像 %1（%2，%3），最新的 AWS Deep Learning Base GPU AMI</translation>
    </message>
    <message>
        <source>Image %1 (%2), the newest AWS Deep Learning Base GPU AMI</source>
        <translation>镜像 %1（%2），最新的 AWS Deep Learning Base GPU AMI</translation>
    </message>
    <message>
        <source>Key pair %1 already imported</source>
        <translation>密钥对 %1 已导入过</translation>
    </message>
    <message>
        <source>Would import key pair %1 (dry run: not imported)</source>
        <translation>将导入密钥对 %1（试运行：未导入）</translation>
    </message>
    <message>
        <source>Imported key pair %1</source>
        <translation>已导入密钥对 %1</translation>
    </message>
    <message>
        <source>Security group %1 (%2) opens SSH to %3 only</source>
        <translation>安全组 %1（%2）只对 %3 开放 SSH</translation>
    </message>
    <message>
        <source>Security group %1 (%2) lacks its SSH rule for %3: would add it (dry run: not added)</source>
        <translation>安全组 %1（%2）缺少对 %3 的 SSH 规则：将添加（试运行：未添加）</translation>
    </message>
    <message>
        <source>Security group %1 (%2) had lost its SSH rule: added it again, it opens SSH to %3 only</source>
        <translation>安全组 %1（%2）的 SSH 规则已丢失：已重新添加，只对 %3 开放 SSH</translation>
    </message>
    <message>
        <source>Would create security group %1 opening SSH to %2 only (dry run: not created; the launch is checked without it)</source>
        <translation>将创建只对 %2 开放 SSH 的安全组 %1（试运行：未创建；启动检查不含该安全组）</translation>
    </message>
    <message>
        <source>Security group %1 opens SSH to %2 only</source>
        <translation>安全组 %1 只对 %2 开放 SSH</translation>
    </message>
    <message>
        <source>Dry run: EC2 says the launch of %1 would succeed</source>
        <translation>试运行：EC2 表示启动 %1 会成功</translation>
    </message>
    <message>
        <source>Launched %1 (%2, %3) in %4, %5</source>
        <translation>已在 %4 启动 %1（%2，%3），状态 %5</translation>
    </message>
    <message>
        <source>security group %1 lacks its rule for all outbound: would add it</source>
        <translation>安全组 %1 缺少允许全部出站的规则：将添加</translation>
    </message>
    <message>
        <source>security group %1 had lost its rule for all outbound: added it again</source>
        <translation>安全组 %1 允许全部出站的规则已丢失：已重新添加</translation>
    </message>
    <message>
        <source>created security group %1 (%2): SSH from %3, all outbound</source>
        <translation>已创建安全组 %1（%2）：允许来自 %3 的 SSH，允许全部出站</translation>
    </message>
    <message>
        <source>no scheduled terminate: CVM&apos;s ActionTimer is not used for monthly instances</source>
        <translation>未设置定时销毁：包年包月实例不使用 CVM 的 ActionTimer</translation>
    </message>
    <message>
        <source>using image %1</source>
        <translation>使用镜像 %1</translation>
    </message>
    <message>
        <source>found GPU image %1 (%2)</source>
        <translation>找到 GPU 镜像 %1（%2）</translation>
    </message>
    <message>
        <source>found GPU image %1</source>
        <translation>找到 GPU 镜像 %1</translation>
    </message>
    <message>
        <source>found key pair %1 (%2)</source>
        <translation>找到密钥对 %1（%2）</translation>
    </message>
    <message>
        <source>found key pair %1</source>
        <translation>找到密钥对 %1</translation>
    </message>
    <message>
        <source>would import key pair %1</source>
        <translation>将导入密钥对 %1</translation>
    </message>
    <message>
        <source>imported key pair %1 (%2)</source>
        <translation>已导入密钥对 %1（%2）</translation>
    </message>
    <message>
        <source>imported key pair %1</source>
        <translation>已导入密钥对 %1</translation>
    </message>
    <message>
        <source>found security group %1 (%2)</source>
        <translation>找到安全组 %1（%2）</translation>
    </message>
    <message>
        <source>security group %1 lacks its rule for SSH from %2: would add it</source>
        <translation>安全组 %1 缺少允许来自 %2 的 SSH 的规则：将添加</translation>
    </message>
    <message>
        <source>security group %1 had lost its rule for SSH from %2: added it again</source>
        <translation>安全组 %1 允许来自 %2 的 SSH 的规则已丢失：已重新添加</translation>
    </message>
    <message>
        <source>would create security group %1 (SSH from %2)</source>
        <translation>将创建安全组 %1（允许来自 %2 的 SSH）</translation>
    </message>
    <message>
        <source>created security group %1 (%2): SSH from %3</source>
        <translation>已创建安全组 %1（%2）：允许来自 %3 的 SSH</translation>
    </message>
    <message>
        <source>chose zone %1</source>
        <translation>选择可用区 %1</translation>
    </message>
    <message>
        <source>dry run passed</source>
        <translation>试运行通过</translation>
    </message>
    <message>
        <source>launched %1 in %2</source>
        <translation>已在 %2 启动 %1</translation>
    </message>
    <message>
        <source>%1 a month</source>
        <translation>每月 %1</translation>
    </message>
    <message>
        <source>%1 an hour</source>
        <translation>每小时 %1</translation>
    </message>
    <message>
        <source>Dry run: %1 on %2 in %3, %4, at %5.</source>
        <translation>试运行：在 %2 的 %3 启动 %1，%4，价格 %5。</translation>
    </message>
    <message>
        <source>Launch %1 on %2 in %3, %4, at %5.</source>
        <translation>在 %2 的 %3 启动 %1，%4，价格 %5。</translation>
    </message>
    <message>
        <source>the same as the catalog&apos;s</source>
        <translation>与价格库一致</translation>
    </message>
    <message>
        <source>%1 % above the catalog&apos;s</source>
        <translation>比价格库高 %1%</translation>
    </message>
    <message>
        <source>%1 % below the catalog&apos;s</source>
        <translation>比价格库低 %1%</translation>
    </message>
    <message>
        <source>The provider&apos;s price now: %1 (%2).</source>
        <translation>云厂商当前报价：%1（%2）。</translation>
    </message>
    <message>
        <source>The provider&apos;s price now: %1 (%2), %3.</source>
        <translation>云厂商当前报价：%1（%2），%3。</translation>
    </message>
    <message>
        <source>The launch is costed at the catalog&apos;s price; both are kept in the ledger.</source>
        <translation>费用仍按价格库的价格计算；两个价格都记入账本。</translation>
    </message>
    <message>
        <source>The provider&apos;s current price could not be asked (%1); the catalog&apos;s is used.</source>
        <translation>没能查到云厂商的当前报价（%1），按价格库的价格计算。</translation>
    </message>
    <message numerus="yes">
        <source>Prepaid: %n month(s), %1 in all, paid now; automatic renewal %2.</source>
        <translation>
            <numerusform>包年包月：%n 个月，共 %1，现在一次付清；自动续费%2。</numerusform>
        </translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Spot: bids at most %1 an hour; the provider may reclaim it when its price goes above, or when it needs the capacity.</source>
        <translation>竞价实例：出价每小时最多 %1；市场价高于出价或云厂商需要资源时，实例可能被回收。</translation>
    </message>
    <message>
        <source>Spot: pays the market price, at most the on-demand price; the provider may reclaim it when it needs the capacity.</source>
        <translation>竞价实例：按市场价付费，最高不超过按量价格；云厂商需要资源时，实例可能被回收。</translation>
    </message>
    <message numerus="yes">
        <source>The dead-man switch TERMINATES it after %n hour(s), deleting its disks; the most it can cost before then is %1.</source>
        <translation>
            <numerusform>自动关机会在 %n 小时后【销毁】实例并删除其磁盘；在此之前最多花费 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The dead-man switch shuts it down after %n hour(s): it is stopped, not terminated, and its disks are kept; the most it can cost is %1.</source>
        <translation>
            <numerusform>自动关机会在 %n 小时后将实例关机：实例只是停止、不会被销毁，磁盘保留；最多花费 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The dead-man switch shuts it down after %n hour(s); the most it can cost before then is %2. But %1 bills a machine shut down from inside until it is deleted: GPU Planner deletes it when it next looks (the app open, or `gpuplan instances`) from 30 minutes past the dead-man.</source>
        <translation>
            <numerusform>自动关机会在 %n 小时后关闭它；在此之前最多花费 %2。但在系统内关机的机器，%1 会一直计费到它被删除为止：超过自动关机时间 30 分钟后，GPU Planner 下次检查时（程序打开时，或运行 `gpuplan instances` 时）会删除它。</numerusform>
        </translation>
    </message>
    <message>
        <source>The dead-man switch is OFF: it bills until you terminate it.</source>
        <translation>自动关机已关闭：不手动销毁就一直计费。</translation>
    </message>
    <message>
        <source>After %1 min with every GPU below %2 %, no SSH session and no CPU or network load (counted from minute %3),</source>
        <translation>当所有 GPU 利用率低于 %2%、没有 SSH 会话、CPU 和网络也都空闲，持续 %1 分钟后（从第 %3 分钟开始计时），</translation>
    </message>
    <message>
        <source>%1 the instance is TERMINATED and its disks are deleted.</source>
        <translation>%1实例会被【销毁】，磁盘一并删除。</translation>
    </message>
    <message>
        <source>%1 the instance is stopped (its disks are kept).</source>
        <translation>%1实例会被关机（磁盘保留）。</translation>
    </message>
    <message>
        <source>%1 the instance is shut down, but %2 keeps billing it until it is terminated.</source>
        <translation>%1实例会被关机，但 %2 会一直计费，直到实例被释放。</translation>
    </message>
    <message>
        <source>The idle shutdown is off.</source>
        <translation>空闲关机已关闭。</translation>
    </message>
    <message>
        <source>Copy your results off the instance as you go: nothing on it survives a rule that fires.</source>
        <translation>请随时把结果拷出实例：规则一旦触发，实例上的东西都不会保留。</translation>
    </message>
    <message>
        <source>SSH is open to every address: %1 has no firewall of its own for one instance (only your key lets you in).</source>
        <translation>SSH 对所有地址开放：%1 没有针对单台实例的防火墙（只有你的密钥能登录）。</translation>
    </message>
    <message>
        <source>SSH is opened to %1 only.</source>
        <translation>SSH 只对 %1 开放。</translation>
    </message>
    <message>
        <source>This is a dry run: the provider only checks the request and starts nothing.</source>
        <translation>这是预检：云厂商只检查请求，不会创建任何实例。</translation>
    </message>
    <message>
        <source>It runs %1 in the container %2.</source>
        <translation>在容器 %2 中运行 %1。</translation>
    </message>
    <message>
        <source>Environment variables: %1.</source>
        <translation>环境变量：%1。</translation>
    </message>
    <message numerus="yes">
        <source>The service ends it after %n hour(s) (its timeout) if its command has not ended by then; the most it can cost is %1. It stops billing when it ends.</source>
        <translation>
            <numerusform>如果命令在 %n 小时（作业超时）内没有结束，服务会终止它；最多花费 %1。作业结束即停止计费。</numerusform>
        </translation>
    </message>
    <message>
        <source>There is no machine to log in to: follow its log on the Instances page or with `gpuplan logs`, and cancel it there.</source>
        <translation>没有可登录的机器：在“实例管理”页或用 `gpuplan logs` 查看日志，也在那里取消作业。</translation>
    </message>
    <message>
        <source>Submit a managed job to %1: %2 in %3, %4, at %5.</source>
        <translation>向 %1 提交托管作业：%2，地域 %3，%4，单价 %5。</translation>
    </message>
    <message>
        <source>#%1 %2 %3 %4 (%5)</source>
        <translation>#%1 %2 %3 %4（%5）</translation>
    </message>
    <message>
        <source>no instance id yet</source>
        <translation>尚无实例 ID</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::MainWindow</name>
    <message>
        <source>Plan</source>
        <translation>规划</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>方案对比</translation>
    </message>
    <message>
        <source>Costs</source>
        <translation>成本分析</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动实例</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例管理</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>GPU 验证</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>报表</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>机型与价格</translation>
    </message>
    <message>
        <source>Describe a training run step by step: task, model, data, precision, budget, deadline.</source>
        <translation>一步步描述训练任务：任务类型、模型、数据、精度、预算、截止时间。</translation>
    </message>
    <message>
        <source>Every offer ranked on time, cost and risk, with the reasons for the recommendation.</source>
        <translation>按时间、成本和风险给所有方案排序，并说明推荐理由。</translation>
    </message>
    <message>
        <source>Cost charts: by option, time against cost, renting against buying.</source>
        <translation>成本图表：各方案对比、时间与成本权衡、租用与自购对比。</translation>
    </message>
    <message>
        <source>Launch the chosen instance through the provider&apos;s API.</source>
        <translation>通过云厂商 API 启动选定的实例。</translation>
    </message>
    <message>
        <source>What is running, what it has cost so far, and a guard against forgotten instances.</source>
        <translation>查看正在运行的实例和已产生的费用，防止忘记关机白白烧钱。</translation>
    </message>
    <message>
        <source>Prove over SSH that the GPU and its mixed-precision speed are what was paid for.</source>
        <translation>通过 SSH 验证 GPU 型号和混合精度算力与付费规格一致。</translation>
    </message>
    <message>
        <source>Every GPU offer of the providers, with sourced and dated prices.</source>
        <translation>各云厂商的全部 GPU 机型，价格均注明来源和日期。</translation>
    </message>
    <message>
        <source>file not found</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>file cannot be read</source>
        <translation>文件无法读取</translation>
    </message>
    <message>
        <source>JSON syntax error</source>
        <translation>JSON 语法错误</translation>
    </message>
    <message>
        <source>invalid value</source>
        <translation>取值无效</translation>
    </message>
    <message>
        <source>unknown reference</source>
        <translation>引用不存在</translation>
    </message>
    <message>
        <source>unknown provider</source>
        <translation>未知云厂商</translation>
    </message>
    <message>
        <source>unknown GPU</source>
        <translation>未知 GPU</translation>
    </message>
    <message>
        <source>invalid argument</source>
        <translation>参数无效</translation>
    </message>
    <message>
        <source>Catalog problems</source>
        <translation>目录数据有问题</translation>
    </message>
    <message>
        <source>Some catalog entries could not be read and are left out. The rest of the catalog is loaded and works as usual.</source>
        <translation>部分目录条目无法读取，已跳过；其余目录已正常加载，可以照常使用。</translation>
    </message>
    <message>
        <source>The catalog could not be loaded.</source>
        <translation>目录加载失败。</translation>
    </message>
    <message>
        <source>GPU Planner</source>
        <translation>GPU Planner 云端算力规划</translation>
    </message>
    <message>
        <source>Loading the catalog…</source>
        <translation>正在加载目录……</translation>
    </message>
    <message>
        <source>Catalog: %1 GPU models, %2 offers from %3 providers; newest price %4</source>
        <translation>目录：%1 款 GPU，%3 家云厂商的 %2 个机型；价格最新日期 %4</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Open plan</source>
        <translation>打开规划</translation>
    </message>
    <message>
        <source>GPU Planner plans (*.gpuplan);;All files (*)</source>
        <translation>GPU Planner 规划文件 (*.gpuplan);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation>未命名规划</translation>
    </message>
    <message>
        <source>%1[*] — GPU Planner</source>
        <translation>%1[*] — GPU Planner</translation>
    </message>
    <message>
        <source>Unsaved plan</source>
        <translation>规划未保存</translation>
    </message>
    <message>
        <source>The plan has changes that are not saved. Save them?</source>
        <translation>当前规划有未保存的修改，是否保存？</translation>
    </message>
    <message>
        <source>Cannot open the plan</source>
        <translation>无法打开规划</translation>
    </message>
    <message>
        <source>%1

%2: %3</source>
        <translation>%1

%2：%3</translation>
    </message>
    <message>
        <source>Save plan</source>
        <translation>保存规划</translation>
    </message>
    <message>
        <source>GPU Planner plans (*.gpuplan)</source>
        <translation>GPU Planner 规划文件 (*.gpuplan)</translation>
    </message>
    <message>
        <source>Cannot save the plan</source>
        <translation>无法保存规划</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New plan…</source>
        <translation>新建规划(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>S&amp;ettings…</source>
        <translation>设置(&amp;E)…</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>凭据</translation>
    </message>
    <message>
        <source>The cloud access keys, kept in the system keychain.</source>
        <translation>云平台访问密钥，保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>network error</source>
        <translation>网络错误</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>certificate not trusted</source>
        <translation>证书不受信任</translation>
    </message>
    <message>
        <source>server error</source>
        <translation>服务器错误</translation>
    </message>
    <message>
        <source>rate limited</source>
        <translation>请求过于频繁</translation>
    </message>
    <message>
        <source>clock out of sync</source>
        <translation>时钟不同步</translation>
    </message>
    <message>
        <source>credentials problem</source>
        <translation>凭据有误</translation>
    </message>
    <message>
        <source>cryptography error</source>
        <translation>加密运算出错</translation>
    </message>
    <message>
        <source>SSH host key changed</source>
        <translation>SSH 主机密钥已变更</translation>
    </message>
    <message>
        <source>Export PDF report</source>
        <translation>导出 PDF 报告</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>Writing the report…</source>
        <translation>正在生成报告…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>the open plan</source>
        <translation>当前打开的规划</translation>
    </message>
    <message>
        <source>Writing page %1 of %2…</source>
        <translation>正在生成第 %1 页，共 %2 页…</translation>
    </message>
    <message>
        <source>Cannot write the report</source>
        <translation>无法生成报告</translation>
    </message>
    <message>
        <source>Wrote %1 (%2 pages).</source>
        <translation>已生成 %1（共 %2 页）。</translation>
    </message>
    <message>
        <source>The plan as a PDF for your PI: summary, comparison, charts, risks, buy or rent, method.</source>
        <translation>把规划导出为供导师审阅的 PDF：摘要、方案对比、图表、风险、自购还是租用、方法说明。</translation>
    </message>
    <message>
        <source>E&amp;xport PDF report…</source>
        <translation>导出 PDF 报告(&amp;X)…</translation>
    </message>
    <message>
        <source>no capacity in that zone</source>
        <translation>该可用区库存不足</translation>
    </message>
    <message>
        <source>quota exceeded</source>
        <translation>超出配额</translation>
    </message>
    <message>
        <source>permission missing</source>
        <translation>缺少权限</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>找不到</translation>
    </message>
    <message>
        <source>refused by the provider</source>
        <translation>被云厂商拒绝</translation>
    </message>
    <message>
        <source>over the budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>remote command failed</source>
        <translation>远程命令执行失败</translation>
    </message>
    <message>
        <source>internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <source>Measurement not saved</source>
        <translation>实测数据未保存</translation>
    </message>
    <message>
        <source>Your measured throughput could not be saved, so this plan does not use it. Check that the folder can be written and plan again.

%1</source>
        <translation>你实测的吞吐量没能保存，这次规划没有用上它。请确认该目录可写，然后重新规划。

%1</translation>
    </message>
    <message>
        <source>About GPU Planner</source>
        <translation>关于 GPU Planner</translation>
    </message>
    <message>
        <source>&lt;h3&gt;GPU Planner %1&lt;/h3&gt;&lt;p&gt;Plans a training run on cloud GPUs: compares every offer of eight providers on time, cost and risk, launches the chosen instance, and proves with its CUDA probe that the GPU is what was paid for.&lt;/p&gt;&lt;p&gt;Every price and specification in the catalog names its source and date (Catalog page); what is unknown is shown as unknown.&lt;/p&gt;&lt;p&gt;Your plans&apos; settings, the ledger of launches and your own offers are kept in &lt;tt&gt;%2&lt;/tt&gt;; credentials in the system keychain.&lt;/p&gt;&lt;p&gt;Diagnostics: start it with &lt;tt&gt;--verbose&lt;/tt&gt; (or set &lt;tt&gt;GPUPLAN_LOG=debug&lt;/tt&gt;); secrets are never written to the log.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;GPU Planner %1&lt;/h3&gt;&lt;p&gt;帮你规划云上 GPU 训练：按耗时、成本和风险比较八家云厂商的所有机型，启动选中的实例，并用自带的 CUDA 探针验证 GPU 货真价实。&lt;/p&gt;&lt;p&gt;机型与价格里的每个价格和规格都注明了来源和日期（见“机型与价格”页）；不知道的就标为未知。&lt;/p&gt;&lt;p&gt;规划设置、启动账本和你自己添加的机型保存在 &lt;tt&gt;%2&lt;/tt&gt;；凭据保存在系统钥匙串里。&lt;/p&gt;&lt;p&gt;排查问题：用 &lt;tt&gt;--verbose&lt;/tt&gt; 启动（或设置 &lt;tt&gt;GPUPLAN_LOG=debug&lt;/tt&gt;）；日志里绝不会写入密钥。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About GPU Planner</source>
        <translation>关于 GPU Planner(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>cannot read the watchdog script</source>
        <translation>无法读取看门狗脚本</translation>
    </message>
    <message>
        <source>%1 (and %2 more problem(s))</source>
        <translation>%1（另有 %2 处问题）</translation>
    </message>
    <message>
        <source>internal error, nothing more was done: %1</source>
        <translation>内部错误，未做任何后续操作：%1</translation>
    </message>
    <message>
        <source>internal error, nothing more was done: the job did not run</source>
        <translation>内部错误，未做任何后续操作：任务没有运行</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行训练</translation>
    </message>
    <message>
        <source>Run the training on an instance: sync, watch the GPUs live, bring the results home.</source>
        <translation>在实例上运行训练：同步代码，实时监控 GPU，把结果下载回来。</translation>
    </message>
    <message>
        <source>Every run and launch, plan against actual, and the spending against each budget.</source>
        <translation>每次运行和实例的计划与实际对比，以及各项预算的花费情况。</translation>
    </message>
    <message>
        <source>cannot read the run script</source>
        <translation>无法读取运行脚本</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::OfferTableModel</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>on-demand, per hour</source>
        <translation>按量计费，每小时</translation>
    </message>
    <message>
        <source>spot, per hour</source>
        <translation>竞价实例，每小时</translation>
    </message>
    <message>
        <source>1-year reserved, per hour</source>
        <translation>1 年预留，折合每小时</translation>
    </message>
    <message>
        <source>3-year reserved, per hour</source>
        <translation>3 年预留，折合每小时</translation>
    </message>
    <message>
        <source>monthly subscription, per month</source>
        <translation>包月，每月</translation>
    </message>
    <message>
        <source>yearly subscription, per month</source>
        <translation>包年，折合每月</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>No published price was found for this offer; none is guessed.</source>
        <translation>没有找到该机型的公开价格，我们不做估算。</translation>
    </message>
    <message>
        <source>Datasheet: %1 (%2)</source>
        <translation>规格书：%1（%2）</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>GPU × count</source>
        <translation>GPU × 数量</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>vCPU</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Price/hour</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>Price/month</source>
        <translation>每月价格</translation>
    </message>
    <message>
        <source>Price date</source>
        <translation>价格日期</translation>
    </message>
    <message numerus="yes">
        <source>%n regions</source>
        <translation>
            <numerusform>%n 个地域</numerusform>
        </translation>
    </message>
    <message>
        <source>bare metal</source>
        <translation>裸金属</translation>
    </message>
    <message>
        <source>managed</source>
        <translation>托管服务</translation>
    </message>
    <message>
        <source>TPU</source>
        <translation>TPU</translation>
    </message>
    <message>
        <source>RDMA</source>
        <translation>RDMA</translation>
    </message>
    <message>
        <source>isolated option</source>
        <translation>可选物理隔离</translation>
    </message>
    <message>
        <source>MIG</source>
        <translation>MIG</translation>
    </message>
    <message>
        <source>your offer</source>
        <translation>你添加的机型</translation>
    </message>
    <message>
        <source>your price (overrides the catalog)</source>
        <translation>你的报价（覆盖目录价格）</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>特性</translation>
    </message>
    <message>
        <source>%1
Source: %2
As of: %3 (read %4)</source>
        <translation>%1
来源：%2
价格日期：%3（读取于 %4）</translation>
    </message>
    <message>
        <source>undated: the source states no date</source>
        <translation>无日期：来源未注明</translation>
    </message>
    <message>
        <source>Spot/hour</source>
        <translation>竞价/小时</translation>
    </message>
    <message>
        <source>Yearly, per month</source>
        <translation>包年（折合每月）</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::OptionTableModel</name>
    <message>
        <source>%1 (%2–%3)</source>
        <translation>%1（%2–%3）</translation>
    </message>
    <message>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>spot: %1 % interruption/month</source>
        <translation>竞价：每月中断概率 %1%</translation>
    </message>
    <message>
        <source>commitment</source>
        <translation>需长期绑定</translation>
    </message>
    <message>
        <source>low</source>
        <translation>低</translation>
    </message>
    <message>
        <source>#</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>GPU × count</source>
        <translation>GPU × 数量</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Price/hour</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>Estimated time</source>
        <translation>预计耗时</translation>
    </message>
    <message>
        <source>On-demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>Spot P50–P90</source>
        <translation>竞价 P50–P90</translation>
    </message>
    <message>
        <source>Reserved/subscr.</source>
        <translation>预留/包年包月</translation>
    </message>
    <message>
        <source>Fits memory</source>
        <translation>显存够用</translation>
    </message>
    <message>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <source>%1 (commits %2)</source>
        <translation>%1（需承诺 %2）</translation>
    </message>
    <message>
        <source>commitment: %1</source>
        <translation>需承诺：%1</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::PlanSession</name>
    <message>
        <source>there is no plan to save</source>
        <translation>没有可保存的方案</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::PlanWizard</name>
    <message>
        <source>Write an amount above zero, e.g. 3000, or leave it empty for no limit.</source>
        <translation>请输入大于 0 的金额，例如 3000；留空表示不限预算。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration: write e.g. 14d, 36h, 90m or 2w.</source>
        <translation>“%1”不是有效的时长：请按 14d、36h、90m 或 2w 这样的格式填写。</translation>
    </message>
    <message>
        <source>New plan</source>
        <translation>新建规划</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <source>Precision and framework</source>
        <translation>精度与框架</translation>
    </message>
    <message>
        <source>Budget and deadline</source>
        <translation>预算与截止时间</translation>
    </message>
    <message>
        <source>Data and scale</source>
        <translation>数据与规模</translation>
    </message>
    <message>
        <source>Pricing</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <source>What is trained, and for how long. Presets cite where their figures come from.</source>
        <translation>训练什么模型、训练多久。预设任务的各项数据都注明了来源。</translation>
    </message>
    <message>
        <source>Lower precision runs faster on tensor cores; some clouds do not run every framework.</source>
        <translation>精度越低，在 Tensor Core 上跑得越快；部分云平台并不支持所有框架。</translation>
    </message>
    <message>
        <source>Offers over the budget or past the deadline are left out, each with the reason.</source>
        <translation>超出预算或赶不上截止时间的方案会被排除，并逐一说明原因。</translation>
    </message>
    <message>
        <source>Sensitive data goes only to isolated or certified offers. More GPUs finish sooner but scale imperfectly.</source>
        <translation>敏感数据只会放到物理隔离或通过合规认证的方案上。GPU 越多完成得越快，但扩展效率达不到线性。</translation>
    </message>
    <message>
        <source>Which ways of paying to compare. Reservations and subscriptions need a project long enough for them.</source>
        <translation>选择要比较哪些计费方式。预留实例和包年包月只适合周期足够长的项目。</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务类型：</translation>
    </message>
    <message>
        <source>Workload:</source>
        <translation>训练任务：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>训练轮数（epoch）：</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Framework:</source>
        <translation>框架：</translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation>预算：</translation>
    </message>
    <message>
        <source>Deadline:</source>
        <translation>截止时间：</translation>
    </message>
    <message>
        <source>At least GPUs:</source>
        <translation>最少 GPU 数：</translation>
    </message>
    <message>
        <source>At most GPUs:</source>
        <translation>最多 GPU 数：</translation>
    </message>
    <message>
        <source>Project length (months):</source>
        <translation>项目周期（月）：</translation>
    </message>
    <message>
        <source>Any task</source>
        <translation>全部任务</translation>
    </message>
    <message>
        <source>Narrows the workload list to one kind of task.</source>
        <translation>按任务类型筛选训练任务列表。</translation>
    </message>
    <message>
        <source>A preset with sourced model size and FLOPs. The estimate scales its work by the epochs.</source>
        <translation>预设任务的模型规模和计算量（FLOPs）均注明来源。估算时按训练轮数等比例放大计算量。</translation>
    </message>
    <message>
        <source>Passes over the data set. Time and cost grow in proportion.</source>
        <translation>完整遍历数据集的次数。耗时和费用随之按比例增加。</translation>
    </message>
    <message>
        <source>Best each GPU supports (BF16, else FP16 AMP)</source>
        <translation>各 GPU 支持的最佳精度（优先 BF16，否则 FP16 AMP）</translation>
    </message>
    <message>
        <source>AMP (FP16 mixed precision)</source>
        <translation>AMP（FP16 混合精度）</translation>
    </message>
    <message>
        <source>BF16 mixed precision</source>
        <translation>BF16 混合精度</translation>
    </message>
    <message>
        <source>FP8 (Hopper and newer)</source>
        <translation>FP8（Hopper 及更新架构）</translation>
    </message>
    <message>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>The estimate uses the tensor-core peak of this precision; a GPU without it falls back to the next one it has. FP32 is several times slower on modern GPUs.</source>
        <translation>估算采用该精度下的 Tensor Core 峰值算力；不支持该精度的 GPU 会退回到它支持的下一档精度。在新一代 GPU 上，FP32 要慢好几倍。</translation>
    </message>
    <message>
        <source>TPUs need JAX or TensorFlow; MindSpore needs Ascend or NVIDIA. Offers that cannot run it are excluded.</source>
        <translation>TPU 需要 JAX 或 TensorFlow；MindSpore 需要昇腾（Ascend）或 NVIDIA GPU。无法运行所选框架的方案会被排除。</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>The most the whole run may cost, storage and data transfer included.</source>
        <translation>整个训练任务的费用上限，包含存储和数据传输费用。</translation>
    </message>
    <message>
        <source>Currency of the budget and of every cost shown for this plan.</source>
        <translation>预算以及本规划中显示的所有费用所用的币种。</translation>
    </message>
    <message>
        <source>none, or e.g. 14d</source>
        <translation>不限，或填写如 14d</translation>
    </message>
    <message>
        <source>Wall-clock time until the run must be done: 14d, 36h, 90m or 2w. Setup and data upload count too. With a deadline the cheapest option that meets it wins.</source>
        <translation>训练任务必须完成的实际用时（墙钟时间），如 14d、36h、90m 或 2w。环境准备和数据上传的时间也计算在内。设置截止时间后，会推荐能按时完成的最便宜方案。</translation>
    </message>
    <message>
        <source>The data is sensitive (medical, personal, unpublished)</source>
        <translation>数据属于敏感数据（医疗数据、个人信息、未发表成果）</translation>
    </message>
    <message>
        <source>Keeps only bare-metal or dedicated offers and providers with a documented compliance programme.</source>
        <translation>只保留裸金属或独享型方案，以及有公开合规认证体系的云厂商。</translation>
    </message>
    <message>
        <source>Fewer GPUs than this are not considered, even when cheaper.</source>
        <translation>GPU 数量少于该值的方案即使更便宜也不予考虑。</translation>
    </message>
    <message>
        <source>A model that does not fit is spread over more GPUs, up to this many.</source>
        <translation>模型在显存里放不下时，会拆分到更多 GPU 上，最多不超过该数量。</translation>
    </message>
    <message>
        <source>Allow several servers</source>
        <translation>允许多机训练</translation>
    </message>
    <message>
        <source>Off: only offers whose one server has enough GPUs.</source>
        <translation>关闭时：只考虑单台服务器 GPU 数量就足够的方案。</translation>
    </message>
    <message>
        <source>Several servers only with RDMA (InfiniBand, EFA)</source>
        <translation>仅在有 RDMA（InfiniBand、EFA）时允许多机训练</translation>
    </message>
    <message>
        <source>Without RDMA, gradients cross plain Ethernet and most GPU time is lost waiting.</source>
        <translation>没有 RDMA 时，梯度只能走普通以太网同步，GPU 大部分时间都浪费在等待上。</translation>
    </message>
    <message>
        <source>On-demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>Pay by the hour, stop any time.</source>
        <translation>按小时计费，随时可以停止。</translation>
    </message>
    <message>
        <source>Spot / preemptible</source>
        <translation>竞价 / 抢占式实例</translation>
    </message>
    <message>
        <source>Much cheaper, but can be interrupted; the estimate adds checkpoints and lost work.</source>
        <translation>价格便宜得多，但随时可能被中断回收；估算时已计入保存检查点的开销和中断丢失的训练进度。</translation>
    </message>
    <message>
        <source>Reserved (1 or 3 years)</source>
        <translation>预留实例（1 年或 3 年）</translation>
    </message>
    <message>
        <source>A lower hourly price for a commitment; only for a project that long.</source>
        <translation>承诺长期使用，换取更低的小时单价；只适合周期足够长的项目。</translation>
    </message>
    <message>
        <source>Monthly or yearly subscription</source>
        <translation>包年包月</translation>
    </message>
    <message>
        <source>Chinese clouds&apos; 包年包月: whole months paid in advance.</source>
        <translation>国内云厂商的包年包月：按整月预先付费。</translation>
    </message>
    <message>
        <source>How long the lab will keep training. 0: this run only.</source>
        <translation>课题组还会持续训练多长时间。0 表示只算本次训练。</translation>
    </message>
    <message>
        <source>this run only</source>
        <translation>仅本次训练</translation>
    </message>
    <message>
        <source>Open a workload file</source>
        <translation>打开工作负载文件</translation>
    </message>
    <message>
        <source>Workload files (*.json);;All files (*)</source>
        <translation>工作负载文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Your own: a throughput you measured</source>
        <translation>自定义：用自己实测的吞吐量</translation>
    </message>
    <message>
        <source>Your own: a workload file…</source>
        <translation>自定义：导入工作负载文件…</translation>
    </message>
    <message>
        <source>Tokens per epoch:</source>
        <translation>每轮 token 数：</translation>
    </message>
    <message>
        <source>Samples per epoch:</source>
        <translation>每轮样本数：</translation>
    </message>
    <message>
        <source>e.g. 2B</source>
        <translation>例如 2B</translation>
    </message>
    <message>
        <source>e.g. 1.28M</source>
        <translation>例如 1.28M</translation>
    </message>
    <message>
        <source>Your own run: the throughput you timed on one GPU type is scaled to every other by the ratio of their effective peaks (tensor-core TFLOPS × calibrated efficiency).</source>
        <translation>你自己的训练任务：在某种 GPU 上实测的吞吐量，按各卡有效峰值（Tensor Core TFLOPS × 校准效率）的比例换算到其他 GPU。</translation>
    </message>
    <message>
        <source>A workload file as described in docs/workloads.md: FLOPs per sample, a transformer&apos;s shape, or a measured throughput.</source>
        <translation>按 docs/workloads.md 格式写的工作负载文件：每样本 FLOPs、Transformer 结构或实测吞吐量均可。</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>必填。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a count: write e.g. 1281167, 1.28M or 2B.</source>
        <translation>“%1”不是有效数量，请写成 1281167、1.28M 或 2B 这样的形式。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a count: write e.g. 25.6M or 7B.</source>
        <translation>“%1”不是有效数量，请写成 25.6M 或 7B 这样的形式。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a size in GB: write e.g. 150.</source>
        <translation>“%1”不是以 GB 为单位的大小，请写成 150 这样的形式。</translation>
    </message>
    <message>
        <source>Measured: %1 %2 on %3 × %4</source>
        <translation>实测：%3 × %4 上 %1 %2</translation>
    </message>
    <message>
        <source>Measured throughput:</source>
        <translation>实测吞吐量：</translation>
    </message>
    <message>
        <source>Measured on:</source>
        <translation>测量所用 GPU：</translation>
    </message>
    <message>
        <source>At precision:</source>
        <translation>测量时的精度：</translation>
    </message>
    <message>
        <source>Model parameters:</source>
        <translation>模型参数量：</translation>
    </message>
    <message>
        <source>Data to upload (GB):</source>
        <translation>需上传的数据 (GB)：</translation>
    </message>
    <message>
        <source>Workload file:</source>
        <translation>工作负载文件：</translation>
    </message>
    <message>
        <source>What your training loop reported, over all the GPUs it ran on. Every offer&apos;s time is this figure scaled by its effective peak against that of the GPU you timed it on.</source>
        <translation>训练日志里报告的吞吐量，按参与训练的全部 GPU 合计。每个方案的时间都由它按该方案与实测 GPU 的有效峰值之比换算得出。</translation>
    </message>
    <message>
        <source>Samples (images, sequences, point clouds) or tokens per second.</source>
        <translation>每秒处理的样本数（图片、序列、点云）或 token 数。</translation>
    </message>
    <message>
        <source>How many GPUs of that type the throughput was measured on.</source>
        <translation>测量吞吐量时用了几张这种 GPU。</translation>
    </message>
    <message>
        <source>The GPU you timed it on. Only GPUs in the catalog can be scaled from.</source>
        <translation>实测所用的 GPU。只能从目录中已有的 GPU 换算。</translation>
    </message>
    <message>
        <source>The precision of the timed run: its peak is the one the scaling starts from.</source>
        <translation>实测时用的精度：换算以该精度下的峰值为基准。</translation>
    </message>
    <message>
        <source>The amount of work of one epoch: 1281167, 1.28M, 2B, or 128万. Time grows in proportion.</source>
        <translation>一轮（epoch）的工作量：1281167、1.28M、2B 或 128万 都可以。时间与之成正比。</translation>
    </message>
    <message>
        <source>optional, e.g. 7B</source>
        <translation>选填，例如 7B</translation>
    </message>
    <message>
        <source>Parameter count, to check that weights, gradients and Adam state fit in GPU memory (activations are not counted without the model&apos;s shape). Empty: fit unknown.</source>
        <translation>参数量，用于检查权重、梯度和 Adam 状态能否放进显存（不知道模型结构时不计激活）。留空：不判断显存。</translation>
    </message>
    <message>
        <source>optional, e.g. 150</source>
        <translation>选填，例如 150</translation>
    </message>
    <message>
        <source>What has to be uploaded before training, in GB: counts toward time and storage cost. Empty: nothing to upload.</source>
        <translation>训练前需要上传的数据量（GB），计入时间和存储费用。留空：无需上传。</translation>
    </message>
    <message>
        <source>path to a .json workload file</source>
        <translation>.json 工作负载文件的路径</translation>
    </message>
    <message>
        <source>Your own workload in the gpuplan-workload/1 format (docs/workloads.md). Problems are named here with the JSON path.</source>
        <translation>gpuplan-workload/1 格式（见 docs/workloads.md）的自定义工作负载。文件有问题时，会在这里指出对应的 JSON 路径。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Regions:</source>
        <translation>地域：</translation>
    </message>
    <message>
        <source>MLPerf- or NGC-grade code: DALI decodes images on the GPU, fused kernels, CUDA graphs, Megatron/NeMo-class parallelism.</source>
        <translation>MLPerf 或 NGC 级别的代码：DALI 在 GPU 上解码图片，融合算子，CUDA Graphs，Megatron/NeMo 级别的并行策略。</translation>
    </message>
    <message>
        <source>Eager code with default data loading and no fused kernels: a first script or a course example.</source>
        <translation>eager 模式、默认数据加载、没有融合算子：比如刚写好的第一版脚本或课程示例。</translation>
    </message>
    <message>
        <source>Framework defaults with mixed precision and a proper data loader (PyTorch DataLoader with workers, Hugging Face Trainer, timm, Ultralytics): most lab code.</source>
        <translation>框架默认配置，开了混合精度，数据加载也到位（多 worker 的 PyTorch DataLoader、Hugging Face Trainer、timm、Ultralytics）：实验室里的代码大多如此。</translation>
    </message>
    <message>
        <source>Training code:</source>
        <translation>训练代码：</translation>
    </message>
    <message>
        <source>Typical</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Tuned</source>
        <translation>深度调优</translation>
    </message>
    <message>
        <source>Plain</source>
        <translation>朴素</translation>
    </message>
    <message>
        <source>How tuned the training code is: after the GPU, the biggest single factor in speed. The same 8 × A100 ResNet-50 run is published at 11.4k, 16.6k and 26.7k images/s.</source>
        <translation>训练代码的调优程度：除了 GPU 本身，这是影响速度最大的因素。同样是 8 × A100 训练 ResNet-50，公开结果有 1.14 万、1.66 万和 2.67 万张/秒之分。</translation>
    </message>
    <message>
        <source>I have timed this workload myself</source>
        <translation>这个任务我自己实测过</translation>
    </message>
    <message>
        <source>What you measured is saved as your own calibration case: this plan and every later one for this workload rest on it, for that GPU and its family.</source>
        <translation>你的实测数据会保存为自己的校准案例：本次及以后对这个任务的规划，在该 GPU 及同系列 GPU 上都会以它为依据。</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::ProviderText</name>
    <message>
        <source>EC2 has no monthly rental of an instance; Reserved Instances and Savings Plans are bought separately, for a term, in the console</source>
        <translation>EC2 没有按月租用实例的方式；预留实例和 Savings Plans 需在控制台按期限另行购买</translation>
    </message>
    <message>
        <source>EC2 has no provider-side timer; the dead-man runs inside the instance and InstanceInitiatedShutdownBehavior=terminate makes its shutdown end the billing</source>
        <translation>EC2 没有云端定时器；失联保护在实例内运行，InstanceInitiatedShutdownBehavior=terminate 使实例关机即终止计费</translation>
    </message>
    <message>
        <source>On Tencent Cloud a shutdown inside the instance only stops it, and a pay-as-you-go instance keeps billing; GPU Planner sets Tencent&apos;s scheduled terminate (ActionTimer) instead (not available for monthly instances).</source>
        <translation>在腾讯云上，从实例内部关机只会使实例停止，按量计费的实例仍会继续计费；因此 GPU Planner 改用腾讯云的定时销毁（ActionTimer）（包年包月实例不可用）。</translation>
    </message>
    <message>
        <source>Terminate does not refund it and cannot end it early: Alibaba Cloud releases a subscription instance only after its period. To end it sooner, unsubscribe it in the console (Expenses -&gt; Unsubscribe); any refund follows Alibaba Cloud&apos;s rules.</source>
        <translation>终止操作不会退款，也无法提前结束：阿里云的包年包月实例要到期后才能释放。想提前结束，请在控制台退订（费用 -&gt; 退订管理），能否退款、退多少按阿里云的规则。</translation>
    </message>
    <message>
        <source>Terminate does not refund it and cannot end it early: Huawei Cloud deletes only pay-per-use servers. To end it sooner, unsubscribe it in the console (Billing Center -&gt; Unsubscriptions); any refund follows Huawei Cloud&apos;s rules.</source>
        <translation>终止操作不会退款，也无法提前结束：华为云只能删除按需计费的云服务器。想提前结束，请在控制台退订（费用中心 -&gt; 退订与退换货），能否退款、退多少按华为云的规则。</translation>
    </message>
    <message>
        <source>Terminate does not refund it: it returns the instance to Tencent Cloud, and any refund follows Tencent Cloud&apos;s rules for returned monthly instances.</source>
        <translation>终止操作本身不退款：它只是把实例退还给腾讯云，能否退款按腾讯云包年包月实例的退还规则。</translation>
    </message>
    <message>
        <source>Terminate does not refund the prepaid period.</source>
        <translation>终止操作不会退还已预付的费用。</translation>
    </message>
    <message>
        <source>A shutdown inside a Huawei Cloud server leaves it shut off, not deleted: its disks and elastic IP keep billing (and all of it for flavors with local disks); GPU Planner sets Huawei Cloud&apos;s scheduled delete time (auto_terminate_time) instead (not available for yearly/monthly servers).</source>
        <translation>在华为云服务器内部关机只会让它进入关机状态，不会删除：云硬盘和弹性公网IP仍会计费（带本地盘的规格则全部照常计费）；因此 GPU Planner 改为设置华为云的定时删除时间（auto_terminate_time）（包年/包月云服务器不支持）。</translation>
    </message>
    <message>
        <source>On Alibaba Cloud a shutdown inside the instance only stops it, and a pay-as-you-go instance keeps billing (unless stopped in economical mode); GPU Planner sets ECS&apos;s automatic release time (AutoReleaseTime) instead (not available for subscription instances).</source>
        <translation>在阿里云上，在实例内部关机只会让实例停止，按量付费实例仍会继续计费（节省停机模式除外）；因此 GPU Planner 改为设置 ECS 的自动释放时间（AutoReleaseTime）（包年包月实例不支持）。</translation>
    </message>
    <message>
        <source>A pay-as-you-go instance shut down from inside keeps billing until it is released: the watchdog&apos;s shutdown does not end the bill, the provider&apos;s scheduled release does.</source>
        <translation>按量付费实例在系统内关机后仍会计费，直到实例被释放：看门狗的关机不会停止计费，云厂商的定时释放才会。</translation>
    </message>
    <message>
        <source>Compute Engine has no monthly rental of a VM; committed use discounts are bought for the whole project, for one or three years, in the console (Billing -&gt; Committed use discounts)</source>
        <translation>Compute Engine 没有按月租用单台虚拟机的方式；承诺使用折扣是在控制台（结算 -&gt; 承诺使用折扣）为整个项目购买的，期限一年或三年</translation>
    </message>
    <message>
        <source>Compute Engine&apos;s instances.insert has no validate-only mode: a launch cannot be checked without starting the VM</source>
        <translation>Compute Engine 的 instances.insert 没有仅校验模式：不启动虚拟机就无法检查一次启动</translation>
    </message>
    <message>
        <source>A shutdown inside a Compute Engine VM only stops it (TERMINATED): its boot disk keeps billing; GPU Planner sets Compute Engine&apos;s scheduled delete time (terminationTime, with the DELETE action) instead.</source>
        <translation>在 Compute Engine 虚拟机内关机只会停止它（TERMINATED），启动盘仍在计费；GPU Planner 改为设置 Compute Engine 的定时删除时间（terminationTime，操作为 DELETE）。</translation>
    </message>
    <message>
        <source>Azure sells reservations apart from the VM: buy one in the portal; GPU Planner launches pay-as-you-go or spot VMs</source>
        <translation>Azure 的预留实例需与虚拟机分开购买，请在门户中购买；GPU Planner 只启动按量付费或竞价实例</translation>
    </message>
    <message>
        <source>Azure Resource Manager has no check-only request for a VM</source>
        <translation>Azure 资源管理器没有只检查、不创建虚拟机的请求</translation>
    </message>
    <message>
        <source>Azure VMs have no provider-side delete time: the watchdog inside the VM and GPU Planner&apos;s reconcile end it</source>
        <translation>Azure 虚拟机没有云端定时删除：由实例内的看门狗和 GPU Planner 的对账来结束它</translation>
    </message>
    <message>
        <source>A shutdown inside an Azure VM only stops it; it stays allocated and billed until it is deallocated or deleted</source>
        <translation>在 Azure 虚拟机内关机只会停止它，在解除分配或删除之前仍占用资源并持续计费</translation>
    </message>
    <message>
        <source>Lambda has no spot instances: its API launches on-demand instances only</source>
        <translation>Lambda 没有竞价实例：其 API 只能启动按量付费实例</translation>
    </message>
    <message>
        <source>Lambda sells reserved capacity only through its sales team, not through the API</source>
        <translation>Lambda 的预留容量只能通过销售团队购买，API 不支持</translation>
    </message>
    <message>
        <source>Lambda&apos;s launch has no dry run: a check would start (and bill) the instance</source>
        <translation>Lambda 的启动接口没有试运行（dry run）：检查就会真的创建实例并开始计费</translation>
    </message>
    <message>
        <source>Lambda documents no way for a shutdown inside an instance to terminate it: terminate it through the API or the dashboard</source>
        <translation>Lambda 没有提供“实例内关机即终止”的设置：请通过 API 或控制台终止实例</translation>
    </message>
    <message>
        <source>Lambda bills an instance until it is terminated, also after a shutdown from inside (it has no stopped state)</source>
        <translation>Lambda 会一直计费到实例被终止为止，在实例内关机后也照样计费（没有“已停止”状态）</translation>
    </message>
    <message>
        <source>Lambda has no timer that terminates an instance at a set time</source>
        <translation>Lambda 没有到点自动终止实例的定时功能</translation>
    </message>
    <message>
        <source>Lambda&apos;s firewall rules apply to the whole account (setting them replaces them for every instance), so SSH is not limited to your address</source>
        <translation>Lambda 的防火墙规则作用于整个账号（修改会替换所有实例的规则），因此 SSH 不会只对你的地址开放</translation>
    </message>
    <message>
        <source>Lambda&apos;s launch takes no idempotency key: GPU Planner names each instance with its launch token and looks for that name before sending again</source>
        <translation>Lambda 的启动接口不支持幂等令牌：GPU Planner 用启动令牌给实例命名，重发前先按名称查找</translation>
    </message>
    <message>
        <source>Paperspace has no spot (interruptible) machines: it rents them by the hour only</source>
        <translation>Paperspace 没有竞价实例：机器只按小时按量付费出租</translation>
    </message>
    <message>
        <source>Paperspace&apos;s machines API launches no prepaid machines: every machine is billed by the hour</source>
        <translation>Paperspace 的机器 API 不提供包年包月机器：通过它启动的机器都按小时按量付费</translation>
    </message>
    <message>
        <source>Paperspace has no check-only launch: only the machine type&apos;s availability and the template can be checked beforehand</source>
        <translation>Paperspace 不支持只检查不创建的试运行：事先只能检查机型是否有货以及模板</translation>
    </message>
    <message>
        <source>A shutdown inside a Paperspace machine only turns it off: the machine and its disk stay, and the disk keeps billing until the machine is deleted</source>
        <translation>在 Paperspace 机器内关机只会让它停机：机器和磁盘都保留，磁盘会一直计费，直到删除机器</translation>
    </message>
    <message>
        <source>Paperspace cannot delete a machine at a set time: its auto-shutdown only turns the machine off, and its disk keeps billing</source>
        <translation>Paperspace 无法定时删除机器：它的自动关机只会停机，磁盘仍会继续计费</translation>
    </message>
    <message>
        <source>Paperspace keeps no SSH key pairs for machines: GPU Planner adds your key with a startup script on the machine&apos;s first boot</source>
        <translation>Paperspace 不为机器保存 SSH 密钥对：GPU Planner 在机器首次启动时用启动脚本写入你的公钥</translation>
    </message>
    <message>
        <source>Paperspace machines have no firewall in its API: SSH is open to every address, and only the key protects it</source>
        <translation>Paperspace 的 API 不提供机器防火墙：SSH 对所有地址开放，只有密钥提供保护</translation>
    </message>
    <message>
        <source>Paperspace&apos;s launch call takes no idempotency token: GPU Planner names the machine after the launch&apos;s token and looks for that name before sending again</source>
        <translation>Paperspace 的创建接口不接受幂等令牌：GPU Planner 用启动令牌给机器命名，重新发送前先按该名称查找</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::RefreshPricesDialog</name>
    <message>
        <source>Refresh prices</source>
        <translation>刷新价格</translation>
    </message>
    <message>
        <source>Azure (Retail Prices API)</source>
        <translation>Azure（Retail Prices API 零售价格接口）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>云厂商：</translation>
    </message>
    <message>
        <source>Reading the price list…</source>
        <translation>正在读取价格表…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Cancelled: nothing was changed.</source>
        <translation>已取消：未做任何改动。</translation>
    </message>
    <message>
        <source>The prices could not be read; nothing was changed.
%1</source>
        <translation>无法读取价格，未做任何改动。
%1</translation>
    </message>
    <message numerus="yes">
        <source>%n price(s) as of %1 read for the catalog&apos;s offers: %2 changed or new, %3 unchanged. Plans use them from now on.</source>
        <translation>
            <numerusform>已读取 %n 个价格（截至 %1），用于目录中的报价：%2 个有变动或新增，%3 个不变。之后的方案都会使用这些价格。</numerusform>
        </translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>原价</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>现价</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>AWS (Price List; spot prices with your key)</source>
        <translation>AWS（公开价目表；用你的密钥读竞价价格）</translation>
    </message>
    <message>
        <source>Google Cloud (Cloud Billing Catalog, your service account)</source>
        <translation>Google Cloud（Cloud Billing Catalog，用你的服务账号）</translation>
    </message>
    <message>
        <source>Lambda (your API key)</source>
        <translation>Lambda（用你的 API 密钥）</translation>
    </message>
    <message>
        <source>Alibaba Cloud (price inquiry, your AccessKey)</source>
        <translation>阿里云（询价接口，用你的 AccessKey）</translation>
    </message>
    <message>
        <source>Tencent Cloud (price inquiry, your SecretId)</source>
        <translation>腾讯云（询价接口，用你的 SecretId）</translation>
    </message>
    <message>
        <source>Huawei Cloud (BSS price inquiry, your AK/SK)</source>
        <translation>华为云（BSS 询价接口，用你的 AK/SK）</translation>
    </message>
    <message>
        <source>Paperspace (no price API: its prices stay the bundled ones)</source>
        <translation>Paperspace（没有价格接口，沿用内置价格）</translation>
    </message>
    <message>
        <source>Reads the provider&apos;s current prices and lays them over the bundled ones. AWS and Azure publish theirs; the others answer with the credential you stored under Credentials.</source>
        <translation>读取云厂商当前的价格，覆盖内置价格。AWS 和 Azure 的价目表是公开的；其他厂商要用你在“凭据”页保存的凭据来查询。</translation>
    </message>
    <message>
        <source>%1: %2 of %3 MB</source>
        <translation>%1：%2 / %3 MB</translation>
    </message>
    <message>
        <source>%1 (%2 of %3)</source>
        <translation>%1（%2 / %3）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::ReportsPage</name>
    <message>
        <source>Every training run and every launch from the ledger, what the plan expected against what happened, and what was spent by month, provider and plan.</source>
        <translation>账本中的每次训练运行和每次启动：计划预期与实际结果的对比，以及按月份、云厂商和计划统计的花费。</translation>
    </message>
    <message>
        <source>Runs: plan against actual</source>
        <translation>训练运行：计划与实际对比</translation>
    </message>
    <message>
        <source>Launches</source>
        <translation>实例启动记录</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Write every run and launch to a CSV file for a spreadsheet.</source>
        <translation>把所有运行和启动记录写入 CSV 文件，便于用电子表格查看。</translation>
    </message>
    <message>
        <source>By month</source>
        <translation>按月份</translation>
    </message>
    <message>
        <source>By provider</source>
        <translation>按云厂商</translation>
    </message>
    <message>
        <source>By plan against budget</source>
        <translation>按计划对比预算</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Time planned</source>
        <translation>计划时长</translation>
    </message>
    <message>
        <source>Time taken</source>
        <translation>实际用时</translation>
    </message>
    <message>
        <source>Speed planned</source>
        <translation>计划速度</translation>
    </message>
    <message>
        <source>Speed measured</source>
        <translation>实测速度</translation>
    </message>
    <message>
        <source>Cost planned</source>
        <translation>计划费用</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>实际费用</translation>
    </message>
    <message>
        <source>GPU use</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束时间</translation>
    </message>
    <message>
        <source>Running time</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>目前费用</translation>
    </message>
    <message>
        <source>The ledger cannot be read. %1</source>
        <translation>无法读取账本。%1</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>%1 (%2–%3)</source>
        <translation>%1（%2–%3）</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 样本/秒</translation>
    </message>
    <message>
        <source>Within the planned range</source>
        <translation>在计划范围内</translation>
    </message>
    <message>
        <source>Above the planned range</source>
        <translation>高于计划范围</translation>
    </message>
    <message>
        <source>Below the planned range</source>
        <translation>低于计划范围</translation>
    </message>
    <message>
        <source>%1 (%2 %3)</source>
        <translation>%1（%2 %3）</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>not downloaded</source>
        <translation>未下载</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s), %1 launch(es); spent %2 in all.</source>
        <translation>
            <numerusform>%n 次运行，%1 次启动；共花费 %2。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 has spent %2 % of its budget.</source>
        <translation>%1 已用掉预算的 %2%。</translation>
    </message>
    <message numerus="yes">
        <source>%n launch(es) in another currency left out: no exchange rate is known.</source>
        <translation>
            <numerusform>有 %n 次启动以其他币种计价，因没有汇率未计入。</numerusform>
        </translation>
    </message>
    <message>
        <source>Export runs and launches</source>
        <translation>导出运行和启动记录</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>正在写入 %1…</translation>
    </message>
    <message>
        <source>The CSV file was not written. %1</source>
        <translation>CSV 文件未能写入。%1</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::RunPage</name>
    <message>
        <source>Working directory</source>
        <translation>工作目录</translation>
    </message>
    <message>
        <source>Not one of my launches</source>
        <translation>不是我启动的实例</translation>
    </message>
    <message>
        <source>Run %1 on %2: %3</source>
        <translation>运行 %1（%2）：%3</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Preparing the run&apos;s folder on the instance…</source>
        <translation>正在实例上准备运行目录…</translation>
    </message>
    <message>
        <source>Starting the job…</source>
        <translation>正在启动作业…</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>The run did not start: %1</source>
        <translation>运行没有启动：%1</translation>
    </message>
    <message>
        <source>Run %1 started under %2 on %3.</source>
        <translation>运行 %1 已在 %3 上由 %2 托管启动。</translation>
    </message>
    <message>
        <source>Connecting to run %1 on %2…</source>
        <translation>正在连接 %2 上的运行 %1…</translation>
    </message>
    <message>
        <source>Following run %1.</source>
        <translation>正在跟踪运行 %1。</translation>
    </message>
    <message>
        <source>Lost the connection to run %1, trying again: %2</source>
        <translation>与运行 %1 的连接断开，正在重试：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;The GPUs have been %1 % busy for %2.&lt;/b&gt; Likely why, from what was measured:</source>
        <translation>&lt;b&gt;过去 %2内 GPU 的利用率只有 %1 %。&lt;/b&gt;根据实测数据，可能的原因：</translation>
    </message>
    <message>
        <source>Run %1: %2.</source>
        <translation>运行 %1：%2。</translation>
    </message>
    <message>
        <source>Stopping run %1: SIGINT, then SIGTERM after 30 s, then SIGKILL…</source>
        <translation>正在停止运行 %1：先发 SIGINT，30 秒后 SIGTERM，再不行就 SIGKILL…</translation>
    </message>
    <message>
        <source>Bring the results home into</source>
        <translation>把结果下载到</translation>
    </message>
    <message>
        <source>Bringing the results of run %1 home…</source>
        <translation>正在下载运行 %1 的结果…</translation>
    </message>
    <message>
        <source>The results did not come home: %1</source>
        <translation>结果没有下载成功：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) brought home into %1, checked against their SHA-256 (SHA256SUMS).</source>
        <translation>
            <numerusform>已把 %n 个文件下载到 %1，并核对了 SHA-256（见 SHA256SUMS）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The instance has no %1.</source>
        <translation>实例上没有 %1。</translation>
    </message>
    <message>
        <source>Starting TensorBoard on the instance…</source>
        <translation>正在实例上启动 TensorBoard…</translation>
    </message>
    <message>
        <source>TensorBoard: %1 (forwarded over SSH while this page follows the run)</source>
        <translation>TensorBoard：%1（本页跟踪该运行期间经 SSH 转发）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>steps/s</source>
        <translation>步/秒</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>%1 (%2–%3) %4</source>
        <translation>%1（%2–%3）%4</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Launch:</source>
        <translation>实例记录：</translation>
    </message>
    <message>
        <source>The instance from the ledger: its dead-man and price are shown with the run.</source>
        <translation>账本中的实例：运行时会显示它的自动关机时间和价格。</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>ubuntu@203.0.113.7, user@host:2222, or a Host of ~/.ssh/config</source>
        <translation>ubuntu@203.0.113.7、user@host:2222，或 ~/.ssh/config 中的 Host</translation>
    </message>
    <message>
        <source>Key file:</source>
        <translation>私钥文件：</translation>
    </message>
    <message>
        <source>empty: ssh-agent, then ~/.ssh</source>
        <translation>留空：先用 ssh-agent，再用 ~/.ssh 中的密钥</translation>
    </message>
    <message>
        <source>Jump host:</source>
        <translation>跳板机：</translation>
    </message>
    <message>
        <source>USER@HOST[:PORT], if the instance is reached through one</source>
        <translation>USER@HOST[:PORT]，需要经跳板机访问实例时填写</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Working directory:</source>
        <translation>工作目录：</translation>
    </message>
    <message>
        <source>the folder with your training code</source>
        <translation>训练代码所在的文件夹</translation>
    </message>
    <message>
        <source>Sent to the instance with rsync over SSH (or SFTP); what .gitignore lists stays here.</source>
        <translation>通过 SSH 用 rsync（或 SFTP）发送到实例；.gitignore 中列出的文件不会上传。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>python train.py --epochs 90 --amp</source>
        <translation>python train.py --epochs 90 --amp</translation>
    </message>
    <message>
        <source>Setup:</source>
        <translation>准备命令：</translation>
    </message>
    <message>
        <source>commands run first, one per line (pip install -r requirements.txt)</source>
        <translation>先运行的命令，每行一条（如 pip install -r requirements.txt）</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>a local folder, or s3:// cos:// oss:// obs:// gs:// az:// (in $GPUPLAN_DATA)</source>
        <translation>本地文件夹，或 s3:// cos:// oss:// obs:// gs:// az://（放在 $GPUPLAN_DATA）</translation>
    </message>
    <message>
        <source>Container image:</source>
        <translation>容器镜像：</translation>
    </message>
    <message>
        <source>empty: the instance&apos;s own Python; or nvcr.io/nvidia/pytorch:24.05-py3</source>
        <translation>留空：用实例自带的 Python；或填 nvcr.io/nvidia/pytorch:24.05-py3</translation>
    </message>
    <message>
        <source>Results:</source>
        <translation>结果：</translation>
    </message>
    <message>
        <source>paths brought home, comma-separated: checkpoints, metrics.json</source>
        <translation>要下载回来的路径，用逗号分隔：checkpoints, metrics.json</translation>
    </message>
    <message>
        <source>Speed in the log:</source>
        <translation>日志中的速度：</translation>
    </message>
    <message>
        <source>not read</source>
        <translation>不读取</translation>
    </message>
    <message>
        <source>PyTorch Lightning</source>
        <translation>PyTorch Lightning</translation>
    </message>
    <message>
        <source>Hugging Face Trainer</source>
        <translation>Hugging Face Trainer</translation>
    </message>
    <message>
        <source>timm</source>
        <translation>timm</translation>
    </message>
    <message>
        <source>Ultralytics</source>
        <translation>Ultralytics</translation>
    </message>
    <message>
        <source>my own pattern</source>
        <translation>自定义正则</translation>
    </message>
    <message>
        <source>([0-9.]+) samples/s</source>
        <translation>([0-9.]+) samples/s</translation>
    </message>
    <message>
        <source>TensorBoard logs:</source>
        <translation>TensorBoard 日志：</translation>
    </message>
    <message>
        <source>runs, lightning_logs… (in the working directory)</source>
        <translation>runs、lightning_logs…（工作目录下）</translation>
    </message>
    <message>
        <source>Start the run</source>
        <translation>开始运行</translation>
    </message>
    <message>
        <source>Run:</source>
        <translation>运行：</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>SIGINT (your code can save a checkpoint), SIGTERM after 30 s, then SIGKILL.</source>
        <translation>先发 SIGINT（代码可借此保存检查点），30 秒后 SIGTERM，最后 SIGKILL。</translation>
    </message>
    <message>
        <source>Bring results home…</source>
        <translation>下载结果…</translation>
    </message>
    <message>
        <source>Download the result paths, the whole log and the GPU samples: resumable, checked with SHA-256.</source>
        <translation>下载结果路径、完整日志和 GPU 采样数据：支持断点续传，用 SHA-256 校验。</translation>
    </message>
    <message>
        <source>Open TensorBoard</source>
        <translation>打开 TensorBoard</translation>
    </message>
    <message>
        <source>Started on the instance if needed and forwarded over SSH to this computer.</source>
        <translation>必要时在实例上启动，并经 SSH 转发到本机。</translation>
    </message>
    <message>
        <source>Pause charts</source>
        <translation>暂停图表</translation>
    </message>
    <message>
        <source>Freeze the charts to look closer (drag to zoom, right-click to zoom out).</source>
        <translation>冻结图表以便细看（拖动放大，右键缩小）。</translation>
    </message>
    <message>
        <source>Planned</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>GPU busy</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>%1 (%2–%3)</source>
        <translation>%1（%2–%3）</translation>
    </message>
    <message>
        <source>over 70 %</source>
        <translation>70 % 以上</translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation>目前 %1</translation>
    </message>
    <message>
        <source>unknown: the instance is not from the ledger</source>
        <translation>未知：该实例不在账本中</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Slower than the plan&apos;s range</source>
        <translation>比计划范围慢</translation>
    </message>
    <message>
        <source>Faster than the plan&apos;s range</source>
        <translation>比计划范围快</translation>
    </message>
    <message>
        <source>&lt;b&gt;The dead-man terminates this instance in %1:&lt;/b&gt; bring the results home now.</source>
        <translation>&lt;b&gt;自动关机将在 %1 后释放此实例：&lt;/b&gt;请立即下载结果。</translation>
    </message>
    <message>
        <source>The dead-man terminates this instance in %1 (a warning shows here 15 minutes before).</source>
        <translation>自动关机将在 %1 后释放此实例（提前 15 分钟会在这里提醒）。</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>The measured speed was not kept: %1</source>
        <translation>实测速度没有保存：%1</translation>
    </message>
    <message>
        <source>Run %1 finished at %2; kept as your own calibration case, which plans use from the next start of GPU Planner.</source>
        <translation>运行 %1 已完成，实测 %2；已保存为你自己的校准数据，下次启动 GPU Planner 后的规划会用到它。</translation>
    </message>
    <message>
        <source>its region</source>
        <translation>所在地域</translation>
    </message>
    <message>
        <source>The bucket&apos;s region (e.g. ap-beijing, us-east-1): a bucket in another region than the instance is said before the run starts.</source>
        <translation>存储桶所在地域（如 ap-beijing、us-east-1）：若与实例不在同一地域，会在运行开始前提醒。</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read run %1: %2</source>
        <translation>无法读取运行 %1：%2</translation>
    </message>
    <message>
        <source>Run %1 was not recovered: %2</source>
        <translation>运行 %1 未能恢复：%2</translation>
    </message>
    <message>
        <source>cannot read the starter script&apos;s template</source>
        <translation>无法读取入门训练脚本的模板</translation>
    </message>
    <message>
        <source>cannot write the file</source>
        <translation>无法写入该文件</translation>
    </message>
    <message>
        <source>Spot interruptions</source>
        <translation>竞价实例中断</translation>
    </message>
    <message>
        <source>Survive spot interruptions</source>
        <translation>应对竞价实例中断</translation>
    </message>
    <message>
        <source>A watcher beside the job polls the provider&apos;s interruption notice, signals your program to checkpoint, and copies the checkpoint folder to the bucket.</source>
        <translation>任务旁运行一个监视进程：轮询云厂商的中断通知，通知你的程序保存检查点，并把检查点目录同步到存储桶。</translation>
    </message>
    <message>
        <source>Relaunch and resume when the instance is reclaimed</source>
        <translation>实例被回收时重新启动实例并续跑</translation>
    </message>
    <message>
        <source>A new instance in the plan&apos;s fallback order (the same zone, the region&apos;s other zones, the plan&apos;s other regions and providers), the job started again from the bucket&apos;s newest checkpoint.</source>
        <translation>按方案的备选顺序（同一可用区、本地域其他可用区、方案中的其他地域和云厂商）新开一台实例，从存储桶中最新的检查点重新启动任务。</translation>
    </message>
    <message>
        <source>Checkpoint bucket:</source>
        <translation>检查点存储桶：</translation>
    </message>
    <message>
        <source>s3:// gs:// oss:// cos:// obs:// az://</source>
        <translation>s3:// gs:// oss:// cos:// obs:// az://</translation>
    </message>
    <message>
        <source>Checkpoint folder:</source>
        <translation>检查点目录：</translation>
    </message>
    <message>
        <source>Where your program writes its checkpoints, in the working directory ($GPUPLAN_CHECKPOINT_DIR).</source>
        <translation>你的程序写检查点的目录，位于工作目录内（$GPUPLAN_CHECKPOINT_DIR）。</translation>
    </message>
    <message>
        <source>On demand after:</source>
        <translation>改用按量付费：</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source> interruption(s)</source>
        <translation> 次中断后</translation>
    </message>
    <message>
        <source>From this many interruptions on, the relaunch is on demand (0: always spot).</source>
        <translation>中断达到这个次数后，重新启动改用按量付费实例（0：始终用竞价实例）。</translation>
    </message>
    <message>
        <source>Write a starter script…</source>
        <translation>生成入门训练脚本…</translation>
    </message>
    <message>
        <source>train.py for this plan (PyTorch, checkpoints on the interruption signal, resumes from the newest): replace its model and data sections with yours.</source>
        <translation>为本方案生成 train.py（PyTorch，收到中断信号时保存检查点，从最新检查点续跑）：把其中的模型和数据部分换成你自己的。</translation>
    </message>
    <message>
        <source>Attempts and interruptions</source>
        <translation>运行尝试与中断</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>How it ended</source>
        <translation>结束方式</translation>
    </message>
    <message>
        <source>The chosen launch is not a spot instance (%1): it is not reclaimed, so there is nothing to survive.</source>
        <translation>所选实例不是竞价实例（%1）：不会被回收，无需处理中断。</translation>
    </message>
    <message>
        <source>Checkpoint bucket</source>
        <translation>检查点存储桶</translation>
    </message>
    <message>
        <source>Checkpoint folder</source>
        <translation>检查点目录</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The bucket is in %1, the instance in %2: every checkpoint crosses regions, and traffic between regions is billed.</source>
        <translation>存储桶在 %1，实例在 %2：每次同步检查点都会跨地域传输，跨地域流量要收费。</translation>
    </message>
    <message>
        <source>Checkpoints go to the bucket every %1 (the run&apos;s setting), and at once on a notice.</source>
        <translation>每 %1 把检查点同步到存储桶一次（本次运行的设置），收到中断通知时立即同步。</translation>
    </message>
    <message>
        <source>Checkpoints go to the bucket every %1: Daly&apos;s optimum checkpoint interval for this plan&apos;s spot interruption rate, and at once on a notice.</source>
        <translation>每 %1 把检查点同步到存储桶一次：这是按本方案竞价实例中断率算出的 Daly 最优检查点间隔；收到中断通知时立即同步。</translation>
    </message>
    <message>
        <source>Checkpoints go to the bucket only on a notice and at the end (the plan has no spot checkpoint interval).</source>
        <translation>只在收到中断通知时和结束时把检查点同步到存储桶（方案中没有竞价实例的检查点间隔）。</translation>
    </message>
    <message>
        <source>Open a plan first: the starter script is made from it.</source>
        <translation>请先打开一个方案：入门训练脚本是根据方案生成的。</translation>
    </message>
    <message>
        <source>Write train.py into</source>
        <translation>把 train.py 写到</translation>
    </message>
    <message>
        <source>Replace train.py?</source>
        <translation>替换 train.py？</translation>
    </message>
    <message>
        <source>%1 exists. Replace it with the starter script? Your file is lost.</source>
        <translation>%1 已存在。要用入门训练脚本替换它吗？你原来的文件将丢失。</translation>
    </message>
    <message>
        <source>train.py was left as it is.</source>
        <translation>train.py 保持不变。</translation>
    </message>
    <message>
        <source>The starter script was not written: %1</source>
        <translation>入门训练脚本没有写入：%1</translation>
    </message>
    <message>
        <source>%1 written: replace its model and data sections with yours; the command and the speed pattern are set.</source>
        <translation>已写入 %1：请把其中的模型和数据部分换成你自己的；命令和速度匹配规则已填好。</translation>
    </message>
    <message>
        <source>Recovering: %1</source>
        <translation>正在恢复：%1</translation>
    </message>
    <message>
        <source>Recovering: the spot instance was reclaimed.</source>
        <translation>正在恢复：竞价实例已被回收。</translation>
    </message>
    <message>
        <source>not launched by GPU Planner</source>
        <translation>不是 GPU Planner 启动的</translation>
    </message>
    <message>
        <source>%1 %2, %3</source>
        <translation>%1 %2，%3</translation>
    </message>
    <message>
        <source>%1 on %2 instances</source>
        <translation>%1（共 %2 台实例）</translation>
    </message>
    <message>
        <source>unknown: an instance&apos;s price is not known</source>
        <translation>未知：有实例的价格未知</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::RunTimeline</name>
    <message>
        <source>No attempts yet</source>
        <translation>还没有运行尝试</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>restart %1</source>
        <translation>重启 %1</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>reclaimed</source>
        <translation>被回收</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>notice → deadline</source>
        <translation>中断通知 → 截止时间</translation>
    </message>
    <message>
        <source>checkpoint in the bucket</source>
        <translation>检查点已入桶</translation>
    </message>
    <message>
        <source>Attempt %1: %2 – %3</source>
        <translation>第 %1 次尝试：%2 – %3</translation>
    </message>
    <message>
        <source>Notice at %1, the instance went at %2</source>
        <translation>%1 收到中断通知，实例于 %2 被回收</translation>
    </message>
    <message>
        <source>Notice at %1</source>
        <translation>%1 收到中断通知</translation>
    </message>
    <message>
        <source>Reclaimed without a notice</source>
        <translation>未收到通知即被回收</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Switches the whole window at once; no restart.</source>
        <translation>整个窗口立即切换，无需重启。</translation>
    </message>
    <message>
        <source>The currency a new plan starts in.</source>
        <translation>新建规划默认使用的币种。</translation>
    </message>
    <message>
        <source>Use my rate instead of the catalog&apos;s</source>
        <translation>使用我自己设置的汇率，而不是目录汇率</translation>
    </message>
    <message>
        <source>The catalog&apos;s rate is dated and sourced; yours is used for new plans and marked as entered by you.</source>
        <translation>目录汇率注明了日期和来源；你设置的汇率会用于新建规划，并标注为“用户设置”。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>What your institution pays per kWh. Unknown leaves electricity out of buying, and the chart says so.</source>
        <translation>单位实际支付的每千瓦时电价。留空（未知）时，自购成本不计电费，图表上会注明。</translation>
    </message>
    <message>
        <source>default (ownership.json)</source>
        <translation>默认值（ownership.json）</translation>
    </message>
    <message>
        <source>Power usage effectiveness of your server room: 1.0 is ideal, 1.5 is typical, an office room can be worse.</source>
        <translation>机房的电能使用效率（PUE）：1.0 为理想值，1.5 较常见，普通办公室改造的机房可能更高。</translation>
    </message>
    <message>
        <source>from the environment (https_proxy)</source>
        <translation>沿用环境变量（https_proxy）</translation>
    </message>
    <message>
        <source>HTTP(S) proxy for the cloud APIs, e.g. http://proxy.example.edu.cn:3128.</source>
        <translation>访问云厂商 API 用的 HTTP(S) 代理，例如 http://proxy.example.edu.cn:3128。</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>界面语言：</translation>
    </message>
    <message>
        <source>Currency of new plans:</source>
        <translation>新规划币种：</translation>
    </message>
    <message>
        <source>Exchange rate:</source>
        <translation>汇率：</translation>
    </message>
    <message>
        <source>Electricity price:</source>
        <translation>电价：</translation>
    </message>
    <message>
        <source>PUE of your server room:</source>
        <translation>机房 PUE：</translation>
    </message>
    <message>
        <source>Proxy:</source>
        <translation>代理：</translation>
    </message>
    <message>
        <source>Regions of new plans:</source>
        <translation>新方案的地域：</translation>
    </message>
    <message>
        <source>none: the system&apos;s certificates only</source>
        <translation>无：只使用系统证书</translation>
    </message>
    <message>
        <source>If your campus or company network inspects HTTPS with its own certificate authority, its CA certificate (PEM). It is trusted beside the system&apos;s; certificates are always checked.</source>
        <translation>如果校园网或公司网络用自己的证书颁发机构检查 HTTPS 流量，请在此选择其 CA 证书（PEM）。它会与系统证书一起被信任；证书校验始终开启。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Extra CA certificate:</source>
        <translation>额外的 CA 证书：</translation>
    </message>
    <message>
        <source>e.g. Vision Lab, School of Computer Science</source>
        <translation>例如：计算机学院视觉实验室</translation>
    </message>
    <message>
        <source>Printed on the cover of exported PDF reports.</source>
        <translation>印在导出的 PDF 报告封面上。</translation>
    </message>
    <message>
        <source>Lab / project (reports):</source>
        <translation>课题组 / 项目（用于报告）：</translation>
    </message>
    <message>
        <source>Author (reports):</source>
        <translation>编制人（用于报告）：</translation>
    </message>
    <message>
        <source>Report paper:</source>
        <translation>报告纸张尺寸：</translation>
    </message>
</context>
<context>
    <name>gpuplan::ui::VerifyPage</name>
    <message>
        <source>Connect over SSH</source>
        <translation>SSH 连接</translation>
    </message>
    <message>
        <source>Detect the OS, driver and GPUs</source>
        <translation>检测系统、驱动和 GPU</translation>
    </message>
    <message>
        <source>Upload the probe (checksum checked)</source>
        <translation>上传探针（校验 SHA-256）</translation>
    </message>
    <message>
        <source>Build the probe there</source>
        <translation>在远程机器上编译探针</translation>
    </message>
    <message>
        <source>Run the probe</source>
        <translation>运行探针</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>不通过</translation>
    </message>
    <message>
        <source>not judged</source>
        <translation>未判定</translation>
    </message>
    <message>
        <source>The verdict is in the plan; its report shows it once the plan is saved.</source>
        <translation>验证结论已加入方案，保存方案后报告里就会显示。</translation>
    </message>
    <message>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>Prove that a machine&apos;s GPUs are what was paid for: GPU Planner logs in over SSH, uploads its CUDA probe (or builds it there), measures tensor-core and memory speed, and checks model, memory, driver, ECC and throttling against the datasheet.</source>
        <translation>验证机器上的 GPU 是否货真价实：GPU Planner 通过 SSH 登录，上传自带的 CUDA 探针（或在机器上现场编译），实测张量核心算力和显存带宽，并对照官方规格检查型号、显存、驱动、ECC 和降频情况。</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>Key file:</source>
        <translation>私钥文件：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Jump host:</source>
        <translation>跳板机：</translation>
    </message>
    <message>
        <source>Launch:</source>
        <translation>对应实例：</translation>
    </message>
    <message>
        <source>Promised GPU:</source>
        <translation>约定的 GPU：</translation>
    </message>
    <message>
        <source>Quick probe (under 10 s; the full one takes up to a minute)</source>
        <translation>快速探测（10 秒内；完整探测最多约 1 分钟）</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>开始验证</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Add to plan</source>
        <translation>加入方案</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Not one of my launches</source>
        <translation>不是从本机启动的实例</translation>
    </message>
    <message>
        <source>As the launch&apos;s offer says, else as the card reports</source>
        <translation>按所选实例的机型配置，否则按显卡自报的型号</translation>
    </message>
    <message>
        <source>The catalog is not loaded yet.</source>
        <translation>机型目录还没加载完。</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Jump host</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <source>This GPU Planner has neither a built probe nor the probe&apos;s source beside it (%1).</source>
        <translation>这个 GPU Planner 旁边既没有编译好的探针，也没有探针源码（%1）。</translation>
    </message>
    <message>
        <source>Verifying %1…</source>
        <translation>正在验证 %1…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>进行中…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Cancelled; nothing was judged.</source>
        <translation>已取消，未作判定。</translation>
    </message>
    <message>
        <source>The probe could not run</source>
        <translation>探针无法运行</translation>
    </message>
    <message>
        <source>The probe could not run there: %1</source>
        <translation>探针无法在该机器上运行：%1</translation>
    </message>
    <message>
        <source>GPU Planner&apos;s driver set-up script for Ubuntu and Rocky/CentOS is in share/gpuplanner/scripts/install-nvidia-driver.sh (run it with --dry-run first).</source>
        <translation>GPU Planner 自带适用于 Ubuntu 和 Rocky/CentOS 的驱动安装脚本：share/gpuplanner/scripts/install-nvidia-driver.sh（建议先加 --dry-run 看看它要做什么）。</translation>
    </message>
    <message>
        <source>Ran the %1 probe (%2).</source>
        <translation>运行的是 %1 探针（%2）。</translation>
    </message>
    <message>
        <source>no GPU found</source>
        <translation>没有找到 GPU</translation>
    </message>
    <message>
        <source>%1 × %2, driver %3</source>
        <translation>%1 × %2，驱动 %3</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 — %2; promised %3</source>
        <translation>%1 — %2；约定 %3</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>The verdict could not be kept in the ledger: %1</source>
        <translation>验证结论未能写入台账：%1</translation>
    </message>
    <message>
        <source>This machine is not what was paid for, or not healthy: see the failed lines.</source>
        <translation>这台机器与付费配置不符，或状态不健康：请看标为不通过的各项。</translation>
    </message>
    <message>
        <source>The GPUs are what was paid for.</source>
        <translation>GPU 与付费配置相符。</translation>
    </message>
    <message>
        <source>The GPUs work, with the warnings above.</source>
        <translation>GPU 可以使用，但有上面列出的警告。</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Burn-in: </source>
        <translation>烤机：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>No burn-in</source>
        <translation>不烤机</translation>
    </message>
    <message>
        <source>After the tests, keep every GPU under full GEMM load for this long and check each result: finds GPUs that err or slow down when hot (like gpu-burn)</source>
        <translation>测试结束后，让每张 GPU 在满负载 GEMM 下持续运行这么长时间，并检查每次结果：能发现一发热就出错或降速的 GPU（类似 gpu-burn）</translation>
    </message>
    <message>
        <source>ubuntu@203.0.113.7, user@host:2222, or a Host of ~/.ssh/config</source>
        <translation>ubuntu@203.0.113.7、user@host:2222，或 ~/.ssh/config 里的 Host 别名</translation>
    </message>
    <message>
        <source>empty: the host&apos;s IdentityFile in ~/.ssh/config, ssh-agent, then the keys in ~/.ssh</source>
        <translation>留空则依次用 ~/.ssh/config 中该主机的 IdentityFile、ssh-agent、~/.ssh 下的密钥</translation>
    </message>
    <message>
        <source>optional, as OpenSSH&apos;s ProxyJump: user@gateway[:port][,user@next] (empty: the host&apos;s ProxyJump in ~/.ssh/config)</source>
        <translation>可选，写法同 OpenSSH 的 ProxyJump：user@gateway[:port][,user@next]（留空则用 ~/.ssh/config 中该主机的 ProxyJump）</translation>
    </message>
</context>
</TS>
